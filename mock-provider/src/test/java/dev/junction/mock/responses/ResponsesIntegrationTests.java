package dev.junction.mock.responses;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import dev.junction.mock.MockProviderServer;
import dev.junction.mock.completion.MockText;
import dev.junction.mock.stats.Route;
import dev.junction.mock.support.TestHttp;
import dev.junction.mock.support.TestHttp.Response;
import dev.junction.mock.support.TestHttp.SseEvent;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.netty.http.client.PrematureCloseException;
import reactor.test.StepVerifier;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code POST /v1/responses} on the wire: the response object, its event stream, tools,
 * limits and faults.
 */
class ResponsesIntegrationTests {

	private static final String PATH = "/v1/responses";

	private static final String TOOL = """
			{"type":"function","name":"get_weather","description":"Weather of a city","strict":true,
			 "parameters":{"type":"object","properties":{"city":{"type":"string"},"days":{"type":"integer"}},
			 "required":["city","days"],"additionalProperties":false}}""";

	private static MockProviderServer server;

	private static TestHttp http;

	@BeforeAll
	static void start() {
		server = MockProviderServer
			.start(Map.of("junction.mock.completion-tokens", 6, "junction.mock.retry-after-seconds", 4));
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
	void answersWithAResponseObject() {
		Response response = http.post(PATH, request("\"input\":\"hello world\",\"instructions\":\"Be brief.\""));

		assertThat(response.status()).isEqualTo(200);
		JsonNode json = response.json();
		assertThat(json.path("id").stringValue()).startsWith("resp_");
		assertThat(json.path("object").stringValue()).isEqualTo("response");
		assertThat(json.path("status").stringValue()).isEqualTo("completed");
		assertThat(json.path("model").stringValue()).isEqualTo("gpt-4o-mini");
		assertThat(json.path("instructions").stringValue()).isEqualTo("Be brief.");
		JsonNode item = json.path("output").get(0);
		assertThat(item.path("type").stringValue()).isEqualTo("message");
		assertThat(item.path("id").stringValue()).startsWith("msg_");
		assertThat(item.path("role").stringValue()).isEqualTo("assistant");
		assertThat(item.path("content").get(0).path("type").stringValue()).isEqualTo("output_text");
		assertThat(item.path("content").get(0).path("text").stringValue()).isEqualTo(MockText.reply("hello world", 6));
		assertThat(json.path("usage").path("input_tokens").intValue()).isEqualTo(MockText.estimateTokens(20));
		assertThat(json.path("usage").path("output_tokens").intValue()).isEqualTo(6);
		assertThat(json.path("usage").path("total_tokens").intValue()).isEqualTo(MockText.estimateTokens(20) + 6);
		assertThat(server.stats().route(Route.RESPONSES).ok()).isEqualTo(1);
	}

	@Test
	void readsTheLastUserMessageOfAnInputList() {
		Response response = http.post(PATH, request("""
				"input":[{"role":"user","content":"first question"},{"role":"assistant","content":"an answer"},
				{"type":"message","role":"user","content":[{"type":"input_text","text":"second one"}]}]"""));

		assertThat(response.json().path("output").get(0).path("content").get(0).path("text").stringValue())
			.isEqualTo(MockText.reply("second one", 6));
	}

	@Test
	void streamsTheEventSequence() {
		Response response = http.post(PATH, request("\"input\":\"hello world\",\"stream\":true"),
				Map.of("x-mock-stream-chunks", "2"));

		assertThat(response.headers().get("content-type")).startsWith("text/event-stream");
		List<SseEvent> events = response.events();
		assertThat(events).extracting(SseEvent::name)
			.containsExactly("response.created", "response.in_progress", "response.output_item.added",
					"response.content_part.added", "response.output_text.delta", "response.output_text.delta",
					"response.output_text.done", "response.content_part.done", "response.output_item.done",
					"response.completed");
		for (int i = 0; i < events.size(); i++) {
			assertThat(events.get(i).json().path("type").stringValue()).isEqualTo(events.get(i).name());
			assertThat(events.get(i).json().path("sequence_number").intValue()).isEqualTo(i);
		}
		assertThat(events.get(0).json().path("response").path("status").stringValue()).isEqualTo("in_progress");
		String itemId = events.get(2).json().path("item").path("id").stringValue();
		String text = events.get(4).json().path("delta").stringValue()
				+ events.get(5).json().path("delta").stringValue();
		assertThat(text).isEqualTo(MockText.reply("hello world", 6));
		assertThat(events.get(4).json().path("item_id").stringValue()).isEqualTo(itemId);
		assertThat(events.get(6).json().path("text").stringValue()).isEqualTo(text);
		JsonNode completed = events.get(9).json().path("response");
		assertThat(completed.path("status").stringValue()).isEqualTo("completed");
		assertThat(completed.path("id").stringValue())
			.isEqualTo(events.get(0).json().path("response").path("id").stringValue());
		assertThat(completed.path("output").get(0).path("content").get(0).path("text").stringValue()).isEqualTo(text);
		assertThat(completed.path("usage").path("output_tokens").intValue()).isEqualTo(6);
		assertThat(response.body()).doesNotContain("[DONE]");
	}

	@Test
	void callsAnOfferedFunction() {
		Response response = http.post(PATH, request("\"input\":\"weather in Paris?\",\"tools\":[" + TOOL + "]"));

		JsonNode item = response.json().path("output").get(0);
		assertThat(item.path("type").stringValue()).isEqualTo("function_call");
		assertThat(item.path("id").stringValue()).startsWith("fc_");
		assertThat(item.path("call_id").stringValue()).startsWith("call_");
		assertThat(item.path("name").stringValue()).isEqualTo("get_weather");
		assertThat(TestHttp.json(item.path("arguments").stringValue()).path("city").stringValue()).isEqualTo("mock");
		assertThat(response.json().path("tools").get(0).path("name").stringValue()).isEqualTo("get_weather");
	}

	@Test
	void streamsAFunctionCallsArguments() {
		Response response = http.post(PATH,
				request("\"input\":\"weather?\",\"stream\":true,\"tool_choice\":\"required\",\"tools\":[" + TOOL + "]"),
				Map.of("x-mock-stream-chunks", "3"));

		List<SseEvent> events = response.events();
		assertThat(events).extracting(SseEvent::name)
			.containsExactly("response.created", "response.in_progress", "response.output_item.added",
					"response.function_call_arguments.delta", "response.function_call_arguments.delta",
					"response.function_call_arguments.delta", "response.function_call_arguments.done",
					"response.output_item.done", "response.completed");
		JsonNode added = events.get(2).json().path("item");
		assertThat(added.path("type").stringValue()).isEqualTo("function_call");
		assertThat(added.path("arguments").stringValue()).isEmpty();
		StringBuilder arguments = new StringBuilder();
		for (SseEvent event : events.subList(3, 6)) {
			arguments.append(event.json().path("delta").stringValue());
		}
		assertThat(events.get(6).json().path("arguments").stringValue()).isEqualTo(arguments.toString());
		assertThat(events.get(6).json().path("name").stringValue()).isEqualTo("get_weather");
		assertThat(events.get(8).json().path("response").path("output").get(0).path("arguments").stringValue())
			.isEqualTo(arguments.toString());
	}

	@Test
	void answersInTextAfterAFunctionsOutput() {
		Response response = http.post(PATH, request("""
				"tools":[%s],"input":[{"role":"user","content":"weather?"},
				{"type":"function_call","call_id":"call_1","name":"get_weather","arguments":"{}"},
				{"type":"function_call_output","call_id":"call_1","output":"sunny"}]""".formatted(TOOL)));

		assertThat(response.json().path("output").get(0).path("type").stringValue()).isEqualTo("message");
	}

	@Test
	void stopsIncompleteAtMaxOutputTokens() {
		Response json = http.post(PATH, request("\"input\":\"hello\",\"max_output_tokens\":3"));
		assertThat(json.json().path("status").stringValue()).isEqualTo("incomplete");
		assertThat(json.json().path("incomplete_details").path("reason").stringValue()).isEqualTo("max_output_tokens");
		assertThat(json.json().path("max_output_tokens").intValue()).isEqualTo(3);
		assertThat(json.json().path("usage").path("output_tokens").intValue()).isEqualTo(3);

		List<SseEvent> events = http.post(PATH, request("\"input\":\"hello\",\"max_output_tokens\":3,\"stream\":true"))
			.events();
		assertThat(events.get(events.size() - 1).name()).isEqualTo("response.incomplete");
	}

	@Test
	void refusesARequestWithoutInputInOpenAisErrorShape() {
		Response response = http.post(PATH, request("\"instructions\":\"nothing to do\""));

		assertThat(response.status()).isEqualTo(400);
		assertThat(response.json().path("error").path("type").stringValue()).isEqualTo("invalid_request_error");
		assertThat(response.json().path("error").path("param").stringValue()).isEqualTo("input");
		assertThat(http.post(PATH, "{\"model\":").json().path("error").path("type").stringValue())
			.isEqualTo("invalid_request_error");
	}

	@Test
	void obeysTheFaultAndLatencyHeaders() {
		Response limited = http.post(PATH, request("\"input\":\"hi\""), Map.of("x-mock-status", "429"));
		assertThat(limited.status()).isEqualTo(429);
		assertThat(limited.headers().get("retry-after")).isEqualTo("4");
		assertThat(limited.json().path("error").path("code").stringValue()).isEqualTo("rate_limit_exceeded");

		long start = System.nanoTime();
		assertThat(http.post(PATH, request("\"input\":\"hi\""), Map.of("x-mock-latency-ms", "250")).status())
			.isEqualTo(200);
		assertThat((System.nanoTime() - start) / 1_000_000).isGreaterThanOrEqualTo(250);

		StepVerifier
			.create(http.stream(PATH, request("\"input\":\"hi\",\"stream\":true"), Map.of("x-mock-truncate-after", "3"))
				.reduce(String::concat))
			.expectError(PrematureCloseException.class)
			.verify(Duration.ofSeconds(20));
		assertThat(server.stats().route(Route.RESPONSES).errors()).isEqualTo(1);
		assertThat(server.stats().route(Route.RESPONSES).truncated()).isEqualTo(1);
	}

	private static String request(String fields) {
		return "{\"model\":\"gpt-4o-mini\"," + fields + "}";
	}

}
