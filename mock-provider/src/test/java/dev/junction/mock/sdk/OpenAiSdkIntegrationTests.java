package dev.junction.mock.sdk;

import java.util.List;
import java.util.Map;

import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.core.JsonValue;
import com.openai.core.http.StreamResponse;
import com.openai.errors.RateLimitException;
import com.openai.errors.UnauthorizedException;
import com.openai.helpers.ChatCompletionAccumulator;
import com.openai.models.FunctionDefinition;
import com.openai.models.FunctionParameters;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionChunk;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import com.openai.models.chat.completions.ChatCompletionFunctionTool;
import com.openai.models.chat.completions.ChatCompletionMessageFunctionToolCall;
import com.openai.models.chat.completions.ChatCompletionStreamOptions;
import dev.junction.mock.MockProviderServer;
import dev.junction.mock.completion.MockText;
import dev.junction.mock.stats.Route;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The official OpenAI Java SDK (OkHttp client) parses and validates every answer of the
 * emulator.
 */
class OpenAiSdkIntegrationTests {

	private static final String KEY = "sk-sdk-test-7a3f";

	private static MockProviderServer server;

	private static OpenAIClient client;

	@BeforeAll
	static void start() {
		server = MockProviderServer
			.start(Map.of("junction.mock.completion-tokens", 12, "junction.mock.api-keys", List.of(KEY)));
		client = OpenAIOkHttpClient.builder().baseUrl(server.openAiBaseUrl()).apiKey(KEY).maxRetries(0).build();
	}

	@AfterAll
	static void stop() {
		client.close();
		server.close();
	}

	@Test
	void parsesAndValidatesACompletion() {
		ChatCompletion completion = client.chat().completions().create(chat().build());

		completion.validate();
		assertThat(completion.model()).isEqualTo("gpt-4o-mini");
		ChatCompletion.Choice choice = completion.choices().get(0);
		assertThat(choice.message().content()).contains(MockText.reply("hello world", 12));
		assertThat(choice.finishReason()).isEqualTo(ChatCompletion.Choice.FinishReason.STOP);
		assertThat(completion.usage().orElseThrow().completionTokens()).isEqualTo(12);
		assertThat(completion.usage().orElseThrow().totalTokens())
			.isEqualTo(completion.usage().orElseThrow().promptTokens() + 12);
	}

	@Test
	void parsesAndValidatesAStreamWithItsUsageChunk() {
		ChatCompletionCreateParams params = chat()
			.streamOptions(ChatCompletionStreamOptions.builder().includeUsage(true).build())
			.build();
		ChatCompletionAccumulator accumulator = ChatCompletionAccumulator.create();
		try (StreamResponse<ChatCompletionChunk> stream = client.chat().completions().createStreaming(params)) {
			stream.stream().forEach((chunk) -> {
				chunk.validate();
				accumulator.accumulate(chunk);
			});
		}

		ChatCompletion completion = accumulator.chatCompletion();
		assertThat(completion.choices().get(0).message().content()).contains(MockText.reply("hello world", 12));
		assertThat(completion.choices().get(0).finishReason()).isEqualTo(ChatCompletion.Choice.FinishReason.STOP);
		assertThat(completion.usage().orElseThrow().completionTokens()).isEqualTo(12);
	}

	@Test
	void parsesAToolCall() {
		ChatCompletion completion = client.chat().completions().create(chat().addTool(weatherTool()).build());

		completion.validate();
		assertThat(completion.choices().get(0).finishReason()).isEqualTo(ChatCompletion.Choice.FinishReason.TOOL_CALLS);
		ChatCompletionMessageFunctionToolCall call = completion.choices()
			.get(0)
			.message()
			.toolCalls()
			.orElseThrow()
			.get(0)
			.asFunction();
		assertThat(call.id()).startsWith("call_");
		assertThat(call.function().name()).isEqualTo("get_weather");
		assertThat(call.function().arguments()).isEqualTo("{\"city\":\"mock\"}");
	}

	@Test
	void accumulatesAStreamedToolCall() {
		ChatCompletionAccumulator accumulator = ChatCompletionAccumulator.create();
		try (StreamResponse<ChatCompletionChunk> stream = client.chat()
			.completions()
			.createStreaming(chat().addTool(weatherTool()).build())) {
			stream.stream().forEach(accumulator::accumulate);
		}

		ChatCompletion.Choice choice = accumulator.chatCompletion().choices().get(0);
		assertThat(choice.finishReason()).isEqualTo(ChatCompletion.Choice.FinishReason.TOOL_CALLS);
		ChatCompletionMessageFunctionToolCall call = choice.message().toolCalls().orElseThrow().get(0).asFunction();
		assertThat(call.function().name()).isEqualTo("get_weather");
		assertThat(call.function().arguments()).isEqualTo("{\"city\":\"mock\"}");
	}

	@Test
	void surfacesAnInjected429AsRateLimitExceptionWithRetryAfter() {
		ChatCompletionCreateParams params = chat().putAdditionalHeader("x-mock-status", "429").build();

		assertThatThrownBy(() -> client.chat().completions().create(params))
			.isInstanceOfSatisfying(RateLimitException.class, (ex) -> {
				assertThat(ex.statusCode()).isEqualTo(429);
				assertThat(ex.headers().values("retry-after")).containsExactly("1");
				assertThat(ex.getMessage()).contains("Rate limit");
			});
	}

	@Test
	void surfacesAWrongKeyAsUnauthorizedException() {
		OpenAIClient wrong = OpenAIOkHttpClient.builder()
			.baseUrl(server.openAiBaseUrl())
			.apiKey("sk-wrong")
			.maxRetries(0)
			.build();
		try {
			long before = server.stats().route(Route.CHAT_COMPLETIONS).errors();

			assertThatThrownBy(() -> wrong.chat().completions().create(chat().build()))
				.isInstanceOf(UnauthorizedException.class);
			assertThat(server.stats().route(Route.CHAT_COMPLETIONS).errors()).isEqualTo(before + 1);
		}
		finally {
			wrong.close();
		}
	}

	private static ChatCompletionCreateParams.Builder chat() {
		return ChatCompletionCreateParams.builder().model("gpt-4o-mini").addUserMessage("hello world");
	}

	private static ChatCompletionFunctionTool weatherTool() {
		FunctionParameters parameters = FunctionParameters.builder()
			.putAdditionalProperty("type", JsonValue.from("object"))
			.putAdditionalProperty("properties", JsonValue.from(Map.of("city", Map.of("type", "string"))))
			.putAdditionalProperty("required", JsonValue.from(List.of("city")))
			.build();
		return ChatCompletionFunctionTool.builder()
			.function(FunctionDefinition.builder().name("get_weather").parameters(parameters).build())
			.build();
	}

}
