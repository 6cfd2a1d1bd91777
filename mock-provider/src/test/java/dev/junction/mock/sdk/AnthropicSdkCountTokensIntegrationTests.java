package dev.junction.mock.sdk;

import com.anthropic.client.AnthropicClient;
import com.anthropic.client.okhttp.AnthropicOkHttpClient;
import com.anthropic.errors.NotFoundException;
import com.anthropic.models.messages.Message;
import com.anthropic.models.messages.MessageCountTokensParams;
import com.anthropic.models.messages.MessageCreateParams;
import com.anthropic.models.messages.MessageTokensCount;
import com.anthropic.models.models.ModelInfo;
import dev.junction.mock.MockProviderServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The official Anthropic Java SDK counts tokens and retrieves models from the emulator.
 */
class AnthropicSdkCountTokensIntegrationTests {

	private static MockProviderServer server;

	private static AnthropicClient client;

	@BeforeAll
	static void start() {
		server = MockProviderServer.start();
		client = AnthropicOkHttpClient.builder().baseUrl(server.baseUrl()).apiKey("sk-ant-test").maxRetries(0).build();
	}

	@AfterAll
	static void stop() {
		client.close();
		server.close();
	}

	@Test
	void countsTheTokensTheMessageReports() {
		MessageTokensCount count = client.messages()
			.countTokens(MessageCountTokensParams.builder()
				.model("claude-sonnet-4-5")
				.system("Answer in one sentence.")
				.addUserMessage("How far is the Moon from the Earth?")
				.build());
		Message message = client.messages()
			.create(MessageCreateParams.builder()
				.model("claude-sonnet-4-5")
				.maxTokens(64)
				.system("Answer in one sentence.")
				.addUserMessage("How far is the Moon from the Earth?")
				.build());

		count.validate();
		assertThat(count.inputTokens()).isGreaterThan(1).isEqualTo(message.usage().inputTokens());
	}

	@Test
	void retrievesAModelAndRefusesAnUnknownOne() {
		ModelInfo model = client.models().retrieve("claude-haiku-4-5");

		model.validate();
		assertThat(model.id()).isEqualTo("claude-haiku-4-5");
		assertThatThrownBy(() -> client.models().retrieve("claude-unknown")).isInstanceOf(NotFoundException.class);
	}

}
