package dev.junction.gateway.provider.anthropic;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import dev.junction.gateway.support.Http;
import dev.junction.gateway.support.Json;
import dev.junction.gateway.support.NoErrorLogs;
import dev.junction.gateway.support.RunningGateway;
import dev.junction.mock.MockProviderServer;
import dev.junction.mock.stats.Route;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Anthropic adapter (Spring AI) against the provider emulator and against a server
 * that records the Messages request it receives: what an OpenAI client asks for either
 * reaches Anthropic in Anthropic's terms or is refused, and Anthropic's own client errors
 * come back as Anthropic sent them.
 */
class AnthropicProvidersIntegrationTests {

	private static final String ANSWER = "{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\","
			+ "\"model\":\"claude-haiku-4-5\",\"content\":[{\"type\":\"text\",\"text\":\"ok\"}],"
			+ "\"stop_reason\":\"end_turn\",\"stop_sequence\":null,\"usage\":{\"input_tokens\":3,\"output_tokens\":1}}";

	@RegisterExtension
	final NoErrorLogs noErrorLogs = new NoErrorLogs();

	private static final AtomicReference<String> recorded = new AtomicReference<>();

	private static DisposableServer recorder;

	private static MockProviderServer emulator;

	private static MockProviderServer refusing;

	private static RunningGateway gateway;

	@BeforeAll
	static void start() {
		recorder = HttpServer.create()
			.host("127.0.0.1")
			.port(0)
			.route((routes) -> routes.post("/v1/messages", (request, response) -> request.receive()
				.aggregate()
				.asString()
				.doOnNext(recorded::set)
				.then(response.header("content-type", "application/json").sendString(Mono.just(ANSWER)).then())))
			.bindNow();
		emulator = MockProviderServer.start(Map.of());
		refusing = MockProviderServer.start(Map.of("junction.mock.error-rate", 1.0, "junction.mock.error-status", 400));
		gateway = RunningGateway
			.start(List.of("junction.gateway.cache.enabled=false", "junction.gateway.providers.claude.type=anthropic",
					"junction.gateway.providers.claude.base-url=" + emulator.baseUrl(),
					"junction.gateway.providers.claude.keys[0].value=sk-emu",
					"junction.gateway.providers.recorded.type=anthropic",
					"junction.gateway.providers.recorded.base-url=http://127.0.0.1:" + recorder.port(),
					"junction.gateway.providers.recorded.keys[0].value=sk-rec",
					"junction.gateway.providers.refusing.type=anthropic",
					"junction.gateway.providers.refusing.base-url=" + refusing.baseUrl(),
					"junction.gateway.providers.refusing.keys[0].value=sk-emu"));
	}

	@AfterAll
	static void stop() {
		gateway.close();
		emulator.close();
		refusing.close();
		recorder.disposeNow(Duration.ofSeconds(5));
	}

	@Test
	void offersAToolWithoutADescriptionAsTheOpenAiApiAllows() {
		HttpResponse<String> response = chat("claude", "{\"tools\":[{\"type\":\"function\",\"function\":"
				+ "{\"name\":\"get_weather\",\"parameters\":{\"type\":\"object\",\"properties\":{\"city\":"
				+ "{\"type\":\"string\"}}}}}],\"messages\":[{\"role\":\"user\",\"content\":\"Weather in Paris?\"}]}");
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		JsonNode call = Json.parse(response.body()).path("choices").path(0).path("message").path("tool_calls").path(0);
		assertThat(call.path("function").path("name").asString()).isEqualTo("get_weather");
	}

	@Test
	void keepsANamedToolChoice() {
		String tools = "\"tools\":[" + tool("f") + "," + tool("g") + "],"
				+ "\"tool_choice\":{\"type\":\"function\",\"function\":{\"name\":\"g\"}},"
				+ "\"messages\":[{\"role\":\"user\",\"content\":\"call a tool\"}]";
		HttpResponse<String> complete = chat("claude", "{" + tools + "}");
		assertThat(complete.statusCode()).as(complete.body()).isEqualTo(200);
		assertThat(Json.parse(complete.body())
			.path("choices")
			.path(0)
			.path("message")
			.path("tool_calls")
			.path(0)
			.path("function")
			.path("name")
			.asString()).isEqualTo("g");
		HttpResponse<String> stream = chat("claude", "{\"stream\":true," + tools + "}");
		assertThat(stream.statusCode()).isEqualTo(200);
		assertThat(stream.body()).contains("\"name\":\"g\"").doesNotContain("\"name\":\"f\"");

		assertThat(chat("recorded", "{" + tools + ",\"parallel_tool_calls\":false}").statusCode()).isEqualTo(200);
		JsonNode sent = Json.parse(recorded.get());
		assertThat(sent.path("tool_choice").path("type").asString()).isEqualTo("tool");
		assertThat(sent.path("tool_choice").path("name").asString()).isEqualTo("g");
		assertThat(sent.path("tool_choice").path("disable_parallel_tool_use").asBoolean()).isTrue();
		assertThat(sent.path("tools").path(0).path("description").asString()).isEqualTo("f");
	}

	@Test
	void sendsRequiredAndNoneToolChoicesInAnthropicsTerms() {
		String tools = "\"tools\":[" + tool("f") + "],\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]";
		assertThat(chat("recorded", "{\"tool_choice\":\"required\"," + tools + "}").statusCode()).isEqualTo(200);
		assertThat(Json.parse(recorded.get()).path("tool_choice").path("type").asString()).isEqualTo("any");
		assertThat(chat("recorded", "{\"tool_choice\":\"none\"," + tools + "}").statusCode()).isEqualTo(200);
		assertThat(Json.parse(recorded.get()).path("tool_choice").path("type").asString()).isEqualTo("none");
	}

	@Test
	void asksForStructuredOutputWithTheClientsJsonSchema() {
		HttpResponse<String> response = chat("recorded",
				"{\"response_format\":{\"type\":\"json_schema\","
						+ "\"json_schema\":{\"name\":\"city\",\"schema\":{\"type\":\"object\",\"properties\":{\"name\":"
						+ "{\"type\":\"string\"}},\"required\":[\"name\"],\"additionalProperties\":false}}},"
						+ "\"messages\":[{\"role\":\"user\",\"content\":\"A city?\"}]}");
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		JsonNode format = Json.parse(recorded.get()).path("output_config").path("format");
		assertThat(format.path("type").asString()).isEqualTo("json_schema");
		assertThat(format.path("schema").path("required").path(0).asString()).isEqualTo("name");
	}

	@Test
	void passesAnthropicsClientErrorOnAsSentWithoutRetrying() {
		long before = refusing.stats().route(Route.MESSAGES).requests();
		HttpResponse<String> response = chat("refusing", "{\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");
		assertThat(response.statusCode()).isEqualTo(400);
		JsonNode error = Json.parse(response.body()).path("error");
		assertThat(error.path("message").asString()).isEqualTo("mock-provider injected a 400 error.");
		assertThat(error.path("type").asString()).isEqualTo("invalid_request_error");
		assertThat(refusing.stats().route(Route.MESSAGES).requests()).isEqualTo(before + 1);
	}

	private static String tool(String name) {
		return "{\"type\":\"function\",\"function\":{\"name\":\"" + name
				+ "\",\"parameters\":{\"type\":\"object\",\"properties\":{}}}}";
	}

	private static HttpResponse<String> chat(String provider, String fields) {
		return Http.post(gateway.baseUrl() + "/v1/chat/completions", null,
				"{\"model\":\"" + provider + "/claude-haiku-4-5\"," + fields.substring(1));
	}

}
