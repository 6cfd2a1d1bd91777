package dev.junction.mock.anthropic;

import java.util.List;
import java.util.Map;

import dev.junction.mock.MockProviderServer;
import dev.junction.mock.support.Requests;
import dev.junction.mock.support.TestHttp;
import dev.junction.mock.support.TestHttp.Response;
import dev.junction.mock.support.TestHttp.SseEvent;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

class AnthropicMessagesIntegrationTests {

	private static final String PATH = "/v1/messages";

	private static final Map<String, String> SDK_HEADERS = Map.of("x-api-key", "sk-ant-test-wxyz", "anthropic-version",
			"2023-06-01");

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

	@Test
	void answersWithAMessageEchoingTheModel() {
		Response response = http.post(PATH, Requests.anthropic("hello big world", ""), SDK_HEADERS);

		assertThat(response.status()).isEqualTo(200);
		assertThat(response.headers().get("x-mock-key-suffix")).isEqualTo("wxyz");
		JsonNode json = response.json();
		assertThat(json.path("id").stringValue()).startsWith("msg_");
		assertThat(json.path("type").stringValue()).isEqualTo("message");
		assertThat(json.path("role").stringValue()).isEqualTo("assistant");
		assertThat(json.path("model").stringValue()).isEqualTo("claude-sonnet-4-5");
		assertThat(json.path("content").get(0).path("type").stringValue()).isEqualTo("text");
		assertThat(json.path("content").get(0).path("text").stringValue())
			.isEqualTo("Received 3 words: hello big world");
		assertThat(json.path("stop_reason").stringValue()).isEqualTo("end_turn");
		assertThat(json.has("stop_sequence")).isTrue();
		assertThat(json.path("stop_sequence").isNull()).isTrue();
		assertThat(json.path("usage").path("input_tokens").intValue()).isEqualTo(4);
		assertThat(json.path("usage").path("output_tokens").intValue()).isEqualTo(6);
	}

	@Test
	void countsTheSystemPromptAsInput() {
		JsonNode json = http
			.post(PATH, Requests.anthropic("hi", "\"system\":\"You are a very helpful bot\""), SDK_HEADERS)
			.json();

		assertThat(json.path("usage").path("input_tokens").intValue()).isEqualTo((26 + 2 + 3) / 4);
	}

	@Test
	void stopsAtMaxTokens() {
		String body = "{\"model\":\"claude-sonnet-4-5\",\"max_tokens\":2,"
				+ "\"messages\":[{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"hello\"}]}]}";
		JsonNode json = http.post(PATH, body, SDK_HEADERS).json();

		assertThat(json.path("content").get(0).path("text").stringValue()).isEqualTo("Received 1");
		assertThat(json.path("stop_reason").stringValue()).isEqualTo("max_tokens");
		assertThat(json.path("usage").path("output_tokens").intValue()).isEqualTo(2);
	}

	@Test
	void streamsTheMessagesEventSequence() {
		Response response = http.post(PATH, Requests.anthropic("hello big world", "\"stream\":true"), SDK_HEADERS);

		assertThat(response.headers().get("content-type")).startsWith("text/event-stream");
		List<SseEvent> events = response.events();
		assertThat(events).extracting(SseEvent::name)
			.containsExactly("message_start", "content_block_start", "ping", "content_block_delta",
					"content_block_delta", "content_block_delta", "content_block_stop", "message_delta",
					"message_stop");
		assertThat(events)
			.allSatisfy((event) -> assertThat(event.json().path("type").stringValue()).isEqualTo(event.name()));
		JsonNode message = events.get(0).json().path("message");
		assertThat(message.path("id").stringValue()).startsWith("msg_");
		assertThat(message.path("model").stringValue()).isEqualTo("claude-sonnet-4-5");
		assertThat(message.path("content").isEmpty()).isTrue();
		assertThat(message.path("usage").path("input_tokens").intValue()).isEqualTo(4);
		assertThat(events.get(1).json().path("content_block").path("type").stringValue()).isEqualTo("text");
		StringBuilder text = new StringBuilder();
		for (SseEvent delta : events.subList(3, 6)) {
			assertThat(delta.json().path("delta").path("type").stringValue()).isEqualTo("text_delta");
			text.append(delta.json().path("delta").path("text").stringValue());
		}
		assertThat(text.toString()).isEqualTo("Received 3 words: hello big world");
		JsonNode messageDelta = events.get(7).json();
		assertThat(messageDelta.path("delta").path("stop_reason").stringValue()).isEqualTo("end_turn");
		assertThat(messageDelta.path("usage").path("output_tokens").intValue()).isEqualTo(6);
	}

	@Test
	void answersWithToolUseWhenToolsAreOffered() {
		JsonNode json = http
			.post(PATH, Requests.anthropic("weather in Paris", "\"tools\":[" + Requests.ANTHROPIC_WEATHER_TOOL + "]"),
					SDK_HEADERS)
			.json();

		assertThat(json.path("stop_reason").stringValue()).isEqualTo("tool_use");
		JsonNode block = json.path("content").get(0);
		assertThat(block.path("type").stringValue()).isEqualTo("tool_use");
		assertThat(block.path("id").stringValue()).startsWith("toolu_");
		assertThat(block.path("name").stringValue()).isEqualTo("get_weather");
		assertThat(block.path("input").toString()).isEqualTo("{\"city\":\"mock\",\"days\":1}");
	}

	@Test
	void answersWithTextAfterAToolResult() {
		String body = """
				{"model":"claude-sonnet-4-5","max_tokens":100,"tools":[%s],"messages":[
				 {"role":"user","content":"weather in Paris"},
				 {"role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"get_weather","input":{}}]},
				 {"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"sunny"}]}]}"""
			.formatted(Requests.ANTHROPIC_WEATHER_TOOL);

		JsonNode json = http.post(PATH, body, SDK_HEADERS).json();

		assertThat(json.path("stop_reason").stringValue()).isEqualTo("end_turn");
		assertThat(json.path("content").get(0).path("text").stringValue()).startsWith("Received 3 words: weather");
	}

	@Test
	void callsAToolEvenAfterAToolResultWhenChoiceIsAny() {
		String body = """
				{"model":"claude-sonnet-4-5","max_tokens":100,"tools":[%s],"tool_choice":{"type":"any"},"messages":[
				 {"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"sunny"}]}]}"""
			.formatted(Requests.ANTHROPIC_WEATHER_TOOL);

		assertThat(http.post(PATH, body, SDK_HEADERS).json().path("stop_reason").stringValue()).isEqualTo("tool_use");
	}

	@Test
	void streamsToolUseAsInputJsonDeltas() {
		List<SseEvent> events = http
			.post(PATH,
					Requests.anthropic("weather",
							"\"stream\":true,\"tools\":[" + Requests.ANTHROPIC_WEATHER_TOOL + "]"),
					SDK_HEADERS)
			.events();

		assertThat(events).extracting(SseEvent::name)
			.containsExactly("message_start", "content_block_start", "ping", "content_block_delta",
					"content_block_delta", "content_block_delta", "content_block_stop", "message_delta",
					"message_stop");
		JsonNode block = events.get(1).json().path("content_block");
		assertThat(block.path("type").stringValue()).isEqualTo("tool_use");
		assertThat(block.path("name").stringValue()).isEqualTo("get_weather");
		assertThat(block.path("input").isEmpty()).isTrue();
		StringBuilder json = new StringBuilder();
		for (SseEvent delta : events.subList(3, 6)) {
			assertThat(delta.json().path("delta").path("type").stringValue()).isEqualTo("input_json_delta");
			json.append(delta.json().path("delta").path("partial_json").stringValue());
		}
		assertThat(json.toString()).isEqualTo("{\"city\":\"mock\",\"days\":1}");
		assertThat(events.get(7).json().path("delta").path("stop_reason").stringValue()).isEqualTo("tool_use");
	}

	@Test
	void requiresMaxTokensLikeTheRealApi() {
		Response response = http.post(PATH,
				"{\"model\":\"claude-sonnet-4-5\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}", SDK_HEADERS);

		assertThat(response.status()).isEqualTo(400);
		JsonNode json = response.json();
		assertThat(json.path("type").stringValue()).isEqualTo("error");
		assertThat(json.path("error").path("type").stringValue()).isEqualTo("invalid_request_error");
		assertThat(json.path("error").path("message").stringValue()).contains("max_tokens");
	}

}
