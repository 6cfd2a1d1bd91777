package dev.junction.mock.sdk;

import java.util.List;
import java.util.Map;

import com.anthropic.client.AnthropicClient;
import com.anthropic.client.okhttp.AnthropicOkHttpClient;
import com.anthropic.core.JsonValue;
import com.anthropic.core.http.StreamResponse;
import com.anthropic.errors.RateLimitException;
import com.anthropic.helpers.MessageAccumulator;
import com.anthropic.models.messages.Message;
import com.anthropic.models.messages.MessageCreateParams;
import com.anthropic.models.messages.RawMessageStreamEvent;
import com.anthropic.models.messages.StopReason;
import com.anthropic.models.messages.Tool;
import com.anthropic.models.messages.ToolUseBlock;
import dev.junction.mock.MockProviderServer;
import dev.junction.mock.completion.MockText;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The official Anthropic Java SDK (OkHttp client) parses and validates every answer of
 * the emulator.
 */
class AnthropicSdkIntegrationTests {

	private static MockProviderServer server;

	private static AnthropicClient client;

	@BeforeAll
	static void start() {
		server = MockProviderServer.start(Map.of("junction.mock.completion-tokens", 12));
		client = AnthropicOkHttpClient.builder().baseUrl(server.baseUrl()).apiKey("sk-ant-test").maxRetries(0).build();
	}

	@AfterAll
	static void stop() {
		client.close();
		server.close();
	}

	@Test
	void parsesAndValidatesAMessage() {
		Message message = client.messages().create(messages().build());

		message.validate();
		assertThat(message.model().asString()).isEqualTo("claude-sonnet-4-5");
		assertThat(message.content().get(0).asText().text()).isEqualTo(MockText.reply("hello world", 12));
		assertThat(message.stopReason()).contains(StopReason.END_TURN);
		assertThat(message.usage().outputTokens()).isEqualTo(12);
	}

	@Test
	void accumulatesAndValidatesAStream() {
		MessageAccumulator accumulator = MessageAccumulator.create();
		try (StreamResponse<RawMessageStreamEvent> stream = client.messages().createStreaming(messages().build())) {
			stream.stream().forEach((event) -> {
				event.validate();
				accumulator.accumulate(event);
			});
		}

		Message message = accumulator.message();
		assertThat(message.content().get(0).asText().text()).isEqualTo(MockText.reply("hello world", 12));
		assertThat(message.stopReason()).contains(StopReason.END_TURN);
		assertThat(message.usage().outputTokens()).isEqualTo(12);
		assertThat(message.usage().inputTokens()).isEqualTo(3);
	}

	@Test
	void parsesAToolUse() {
		Message message = client.messages().create(messages().addTool(weatherTool()).build());

		message.validate();
		assertThat(message.stopReason()).contains(StopReason.TOOL_USE);
		ToolUseBlock toolUse = message.content().get(0).asToolUse();
		assertThat(toolUse.name()).isEqualTo("get_weather");
		assertThat(toolUse._input().convert(Map.class)).isEqualTo(Map.of("city", "mock"));
	}

	@Test
	void accumulatesAStreamedToolUse() {
		MessageAccumulator accumulator = MessageAccumulator.create();
		try (StreamResponse<RawMessageStreamEvent> stream = client.messages()
			.createStreaming(messages().addTool(weatherTool()).build())) {
			stream.stream().forEach(accumulator::accumulate);
		}

		Message message = accumulator.message();
		assertThat(message.stopReason()).contains(StopReason.TOOL_USE);
		ToolUseBlock toolUse = message.content().get(0).asToolUse();
		assertThat(toolUse.name()).isEqualTo("get_weather");
		assertThat(toolUse._input().convert(Map.class)).isEqualTo(Map.of("city", "mock"));
	}

	@Test
	void surfacesAnInjected429AsRateLimitException() {
		MessageCreateParams params = messages().putAdditionalHeader("x-mock-status", "429").build();

		assertThatThrownBy(() -> client.messages().create(params)).isInstanceOfSatisfying(RateLimitException.class,
				(ex) -> {
					assertThat(ex.statusCode()).isEqualTo(429);
					assertThat(ex.headers().values("retry-after")).containsExactly("1");
				});
	}

	private static MessageCreateParams.Builder messages() {
		return MessageCreateParams.builder().model("claude-sonnet-4-5").maxTokens(256).addUserMessage("hello world");
	}

	private static Tool weatherTool() {
		return Tool.builder()
			.name("get_weather")
			.inputSchema(Tool.InputSchema.builder()
				.properties(JsonValue.from(Map.of("city", Map.of("type", "string"))))
				.required(List.of("city"))
				.build())
			.build();
	}

}
