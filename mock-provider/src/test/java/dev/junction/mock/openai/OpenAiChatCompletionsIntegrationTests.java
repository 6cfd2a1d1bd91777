package dev.junction.mock.openai;

import java.util.List;
import java.util.Map;

import dev.junction.mock.MockProviderServer;
import dev.junction.mock.stats.Route;
import dev.junction.mock.stats.RouteStats;
import dev.junction.mock.support.Requests;
import dev.junction.mock.support.TestHttp;
import dev.junction.mock.support.TestHttp.Response;
import dev.junction.mock.support.TestHttp.SseEvent;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

class OpenAiChatCompletionsIntegrationTests {

	private static final String PATH = "/v1/chat/completions";

	private static MockProviderServer server;

	private static TestHttp http;

	@BeforeAll
	static void start() {
		server = MockProviderServer
			.start(Map.of("junction.mock.completion-tokens", 6, "junction.mock.stream-chunks", 3));
		http = TestHttp.of(server);
	}

	@AfterAll
	static void stop() {
		server.close();
	}

	@BeforeEach
	void resetStats() {
		server.resetStats();
	}

	@Test
	void answersWithChatCompletionEchoingTheModel() {
		Response response = http.post(PATH, Requests.openAi("hello big world", ""));

		assertThat(response.status()).isEqualTo(200);
		assertThat(response.headers().get("content-type")).isEqualTo("application/json");
		JsonNode json = response.json();
		assertThat(json.path("id").stringValue()).startsWith("chatcmpl-");
		assertThat(json.path("object").stringValue()).isEqualTo("chat.completion");
		assertThat(json.path("created").isIntegralNumber()).isTrue();
		assertThat(json.path("model").stringValue()).isEqualTo("gpt-4o-mini");
		assertThat(json.path("system_fingerprint").stringValue()).isEqualTo("fp_mock");
		JsonNode choice = json.path("choices").get(0);
		assertThat(choice.path("index").intValue()).isZero();
		assertThat(choice.path("message").path("role").stringValue()).isEqualTo("assistant");
		assertThat(choice.path("message").path("content").stringValue()).isEqualTo("Received 3 words: hello big world");
		assertThat(choice.has("logprobs")).isTrue();
		assertThat(choice.path("finish_reason").stringValue()).isEqualTo("stop");
		JsonNode usage = json.path("usage");
		assertThat(usage.path("prompt_tokens").intValue()).isEqualTo(4);
		assertThat(usage.path("completion_tokens").intValue()).isEqualTo(6);
		assertThat(usage.path("total_tokens").intValue()).isEqualTo(10);
	}

	@Test
	void boundsTheCompletionByMaxTokens() {
		JsonNode json = http.post(PATH, Requests.openAi("hello big world", "\"max_tokens\":2")).json();

		assertThat(json.path("choices").get(0).path("message").path("content").stringValue()).isEqualTo("Received 3");
		assertThat(json.path("choices").get(0).path("finish_reason").stringValue()).isEqualTo("length");
		assertThat(json.path("usage").path("completion_tokens").intValue()).isEqualTo(2);
	}

	@Test
	void prefersMaxCompletionTokensOverMaxTokens() {
		JsonNode json = http.post(PATH, Requests.openAi("hi", "\"max_tokens\":5,\"max_completion_tokens\":1")).json();

		assertThat(json.path("usage").path("completion_tokens").intValue()).isEqualTo(1);
	}

	@Test
	void streamsRoleContentFinishThenDone() {
		Response response = http.post(PATH, Requests.openAi("hello big world", "\"stream\":true"));

		assertThat(response.status()).isEqualTo(200);
		assertThat(response.headers().get("content-type")).startsWith("text/event-stream");
		assertThat(response.body()).endsWith("data: [DONE]\n\n");
		List<SseEvent> events = response.events();
		assertThat(events).hasSize(6);
		assertThat(events).allSatisfy((event) -> assertThat(event.name()).isNull());
		assertThat(events.get(5).data()).isEqualTo("[DONE]");
		List<JsonNode> chunks = events.subList(0, 5).stream().map(SseEvent::json).toList();
		String id = chunks.get(0).path("id").stringValue();
		assertThat(chunks).allSatisfy((chunk) -> {
			assertThat(chunk.path("id").stringValue()).isEqualTo(id);
			assertThat(chunk.path("object").stringValue()).isEqualTo("chat.completion.chunk");
			assertThat(chunk.path("model").stringValue()).isEqualTo("gpt-4o-mini");
			assertThat(chunk.has("usage")).isFalse();
		});
		assertThat(delta(chunks.get(0)).path("role").stringValue()).isEqualTo("assistant");
		assertThat(delta(chunks.get(0)).path("content").stringValue()).isEmpty();
		String content = delta(chunks.get(1)).path("content").stringValue()
				+ delta(chunks.get(2)).path("content").stringValue()
				+ delta(chunks.get(3)).path("content").stringValue();
		assertThat(content).isEqualTo("Received 3 words: hello big world");
		assertThat(chunks.get(3).path("choices").get(0).path("finish_reason").isNull()).isTrue();
		assertThat(delta(chunks.get(4)).isEmpty()).isTrue();
		assertThat(chunks.get(4).path("choices").get(0).path("finish_reason").stringValue()).isEqualTo("stop");
		RouteStats stats = server.stats().route(Route.CHAT_COMPLETIONS);
		assertThat(stats.streams()).isEqualTo(1);
		assertThat(stats.ok()).isEqualTo(1);
	}

	@Test
	void streamsAUsageChunkBeforeDoneWhenIncludeUsageIsSet() {
		List<SseEvent> events = http
			.post(PATH,
					Requests.openAi("hello big world", "\"stream\":true,\"stream_options\":{\"include_usage\":true}"))
			.events();

		assertThat(events).hasSize(7);
		assertThat(events.get(6).data()).isEqualTo("[DONE]");
		assertThat(events.subList(0, 5))
			.allSatisfy((event) -> assertThat(event.json().path("usage").isNull()).isTrue());
		JsonNode usageChunk = events.get(5).json();
		assertThat(usageChunk.path("choices").isEmpty()).isTrue();
		assertThat(usageChunk.path("usage").path("prompt_tokens").intValue()).isEqualTo(4);
		assertThat(usageChunk.path("usage").path("completion_tokens").intValue()).isEqualTo(6);
		assertThat(usageChunk.path("usage").path("total_tokens").intValue()).isEqualTo(10);
	}

	@Test
	void streamsOneChunkPerTokenWhenStreamChunksIsZero() {
		List<SseEvent> events = http
			.post(PATH, Requests.openAi("hi", "\"stream\":true"), Map.of("x-mock-stream-chunks", "0"))
			.events();

		assertThat(events).hasSize(6 + 3);
	}

	@Test
	void callsTheFirstToolWithArgumentsFromItsSchema() {
		JsonNode json = http
			.post(PATH, Requests.openAi("weather in Paris", "\"tools\":[" + Requests.OPENAI_WEATHER_TOOL + "]"))
			.json();

		JsonNode choice = json.path("choices").get(0);
		assertThat(choice.path("finish_reason").stringValue()).isEqualTo("tool_calls");
		assertThat(choice.path("message").path("content").isNull()).isTrue();
		JsonNode call = choice.path("message").path("tool_calls").get(0);
		assertThat(call.path("id").stringValue()).startsWith("call_");
		assertThat(call.path("type").stringValue()).isEqualTo("function");
		assertThat(call.path("function").path("name").stringValue()).isEqualTo("get_weather");
		assertThat(call.path("function").path("arguments").stringValue()).isEqualTo("{\"city\":\"mock\",\"days\":1}");
		assertThat(json.path("usage").path("completion_tokens").intValue()).isPositive();
	}

	@Test
	void callsTheNamedTool() {
		String tools = "\"tools\":[" + Requests.OPENAI_WEATHER_TOOL
				+ ",{\"type\":\"function\",\"function\":{\"name\":\"noop\"}}],"
				+ "\"tool_choice\":{\"type\":\"function\",\"function\":{\"name\":\"noop\"}}";
		JsonNode call = http.post(PATH, Requests.openAi("hi", tools))
			.json()
			.path("choices")
			.get(0)
			.path("message")
			.path("tool_calls")
			.get(0);

		assertThat(call.path("function").path("name").stringValue()).isEqualTo("noop");
		assertThat(call.path("function").path("arguments").stringValue()).isEqualTo("{}");
	}

	@Test
	void answersWithTextWhenToolChoiceIsNone() {
		JsonNode choice = http
			.post(PATH,
					Requests.openAi("hi", "\"tools\":[" + Requests.OPENAI_WEATHER_TOOL + "],\"tool_choice\":\"none\""))
			.json()
			.path("choices")
			.get(0);

		assertThat(choice.path("finish_reason").stringValue()).isEqualTo("stop");
		assertThat(choice.path("message").has("tool_calls")).isFalse();
	}

	@Test
	void answersWithTextAfterAToolResult() {
		String body = """
				{"model":"gpt-4o-mini","tools":[%s],"messages":[
				 {"role":"user","content":"weather in Paris"},
				 {"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function",
				  "function":{"name":"get_weather","arguments":"{}"}}]},
				 {"role":"tool","tool_call_id":"call_1","content":"sunny"}]}""".formatted(Requests.OPENAI_WEATHER_TOOL);

		JsonNode choice = http.post(PATH, body).json().path("choices").get(0);

		assertThat(choice.path("finish_reason").stringValue()).isEqualTo("stop");
		assertThat(choice.path("message").path("content").stringValue()).startsWith("Received 3 words: weather");
	}

	@Test
	void streamsAToolCallAsArgumentDeltas() {
		List<SseEvent> events = http
			.post(PATH, Requests.openAi("weather", "\"stream\":true,\"tools\":[" + Requests.OPENAI_WEATHER_TOOL + "]"))
			.events();

		assertThat(events).hasSize(6);
		assertThat(events.get(5).data()).isEqualTo("[DONE]");
		JsonNode first = delta(events.get(0).json()).path("tool_calls").get(0);
		assertThat(first.path("index").intValue()).isZero();
		assertThat(first.path("id").stringValue()).startsWith("call_");
		assertThat(first.path("type").stringValue()).isEqualTo("function");
		assertThat(first.path("function").path("name").stringValue()).isEqualTo("get_weather");
		StringBuilder arguments = new StringBuilder();
		for (SseEvent event : events.subList(1, 4)) {
			JsonNode call = delta(event.json()).path("tool_calls").get(0);
			assertThat(call.path("index").intValue()).isZero();
			arguments.append(call.path("function").path("arguments").stringValue());
		}
		assertThat(arguments.toString()).isEqualTo("{\"city\":\"mock\",\"days\":1}");
		assertThat(events.get(4).json().path("choices").get(0).path("finish_reason").stringValue())
			.isEqualTo("tool_calls");
	}

	@Test
	void rejectsARequestWithoutMessagesInOpenAiShape() {
		Response response = http.post(PATH, "{\"model\":\"gpt-4o-mini\"}");

		assertThat(response.status()).isEqualTo(400);
		JsonNode error = response.json().path("error");
		assertThat(error.path("type").stringValue()).isEqualTo("invalid_request_error");
		assertThat(error.path("param").stringValue()).isEqualTo("messages");
		assertThat(error.has("code")).isTrue();
		assertThat(error.path("message").stringValue()).contains("messages");
		assertThat(server.stats().route(Route.CHAT_COMPLETIONS).errors()).isEqualTo(1);
	}

	@Test
	void rejectsMalformedJsonInOpenAiShape() {
		Response response = http.post(PATH, "{\"model\":");

		assertThat(response.status()).isEqualTo(400);
		assertThat(response.json().path("error").path("message").stringValue()).contains("could not parse the JSON");
	}

	private static JsonNode delta(JsonNode chunk) {
		return chunk.path("choices").get(0).path("delta");
	}

}
