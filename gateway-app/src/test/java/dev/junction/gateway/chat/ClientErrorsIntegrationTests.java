package dev.junction.gateway.chat;

import java.net.http.HttpResponse;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import dev.junction.gateway.support.EmulatedGateway;
import dev.junction.gateway.support.Http;
import dev.junction.gateway.support.Json;
import dev.junction.gateway.support.NoErrorLogs;
import dev.junction.mock.stats.Route;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Client mistakes sent through the real gateway, to every kind of provider: each is a 4xx
 * in OpenAI's error shape that says what is wrong in the client's terms (never a parser's
 * class, feature or setting), names the parameter where there is one, carries the request
 * id and Server-Timing, reaches no upstream when the gateway can tell, and logs nothing
 * at ERROR.
 */
class ClientErrorsIntegrationTests {

	/** What a client must never read: the parser's and the JVM's own vocabulary. */
	private static final Pattern INTERNALS = Pattern
		.compile("jackson|StreamReadConstraints|FAIL_ON|JsonToken|DeserializationFeature|JsonReadFeature|JsonNode"
				+ "|Source:|`|java\\.|\\$|Exception|springframework|reactor\\.", Pattern.CASE_INSENSITIVE);

	private static final String HI = "[{\"role\":\"user\",\"content\":\"hi\"}]";

	@RegisterExtension
	final NoErrorLogs noErrorLogs = new NoErrorLogs();

	@RegisterExtension
	static final EmulatedGateway gateway = EmulatedGateway.emulator(Map.of())
		.properties("junction.gateway.cache.enabled=false")
		.mock()
		.openAi("emu", "sk-emu")
		.anthropic("claude", "sk-emu")
		.properties("junction.gateway.rate-limit.tokens=1000000");

	static Stream<Arguments> malformedBodies() {
		String digits = "1".repeat(1500);
		String deep = "[".repeat(2000) + "]".repeat(2000);
		return Stream.of(bad("an unfinished document", "{\"model\": ", 400, null, "ends before it is complete"),
				bad("an empty body", "", 400, null, "empty"), bad("white space", "  \n ", 400, null, "empty"),
				bad("an array", "[1,2]", 400, null, "expected a JSON object"),
				bad("a string", "\"hello\"", 400, null, "expected a JSON object"),
				bad("content after the document", "{\"model\":\"mock/echo-1\",\"messages\":" + HI + "} {}", 400, null,
						"more content after the JSON value"),
				bad("a number of 1500 digits",
						"{\"model\":\"mock/echo-1\",\"max_tokens\":" + digits + ",\"messages\":" + HI + "}", 400, null,
						"more than 1000 digits"),
				bad("nesting 2000 levels deep",
						"{\"model\":\"mock/echo-1\",\"x\":" + deep + ",\"messages\":" + HI + "}", 400, null,
						"nested more than"),
				bad("NaN", "{\"model\":\"mock/echo-1\",\"temperature\":NaN,\"messages\":" + HI + "}", 400, null, "NaN"),
				bad("a control character in a string",
						"{\"model\":\"mock/echo-1\",\"messages\":[{\"role\":\"user\"," + "\"content\":\"a\u0001b\"}]}",
						400, null, "character"),
				bad("a single-quoted name", "{'model':'mock/echo-1'}", 400, null, "line 1, column 2"),
				bad("no model", "{\"messages\":" + HI + "}", 400, "model", "model"),
				bad("a numeric model", "{\"model\":7,\"messages\":" + HI + "}", 400, "model", "model"),
				bad("no messages", "{\"model\":\"mock/echo-1\"}", 400, "messages", "messages"),
				bad("an empty messages array", "{\"model\":\"mock/echo-1\",\"messages\":[]}", 400, "messages",
						"messages"),
				bad("a message without a role", "{\"model\":\"mock/echo-1\",\"messages\":[{\"content\":\"x\"}]}", 400,
						"messages[0].role", "role"),
				bad("stream as a string", "{\"model\":\"mock/echo-1\",\"stream\":\"yes\",\"messages\":" + HI + "}", 400,
						"stream", "boolean"),
				bad("max_tokens 1e20", "{\"model\":\"mock/echo-1\",\"max_tokens\":1e20,\"messages\":" + HI + "}", 400,
						"max_tokens", "positive integer"),
				bad("max_tokens of 25 digits",
						"{\"model\":\"mock/echo-1\",\"max_tokens\":1234567890123456789012345," + "\"messages\":" + HI
								+ "}",
						400, "max_tokens", "positive integer"),
				bad("a negative max_completion_tokens",
						"{\"model\":\"mock/echo-1\",\"max_completion_tokens\":-5,\"messages\":" + HI + "}", 400,
						"max_completion_tokens", "positive integer"),
				bad("an unknown provider", "{\"model\":\"nowhere/x\",\"messages\":" + HI + "}", 404, "model",
						"does not exist"),
				bad("a bad fallback list", "{\"model\":\"mock/echo-1\",\"models\":[3],\"messages\":" + HI + "}", 400,
						"models", "model names"),
				bad("n of 2 on mock", "{\"model\":\"mock/echo-1\",\"n\":2,\"messages\":" + HI + "}", 400, "n",
						"'n' must be 1"),
				bad("logprobs on mock", "{\"model\":\"mock/echo-1\",\"logprobs\":true,\"messages\":" + HI + "}", 400,
						"logprobs", "log probabilities"),
				bad("a JSON response format on mock",
						"{\"model\":\"mock/echo-1\",\"response_format\":{\"type\":" + "\"json_object\"},\"messages\":"
								+ HI + "}",
						400, "response_format", "response_format"),
				bad("a tool choice naming no tool",
						"{\"model\":\"mock/echo-1\",\"tools\":[{\"type\":\"function\","
								+ "\"function\":{\"name\":\"f\"}}],\"tool_choice\":{\"type\":\"function\",\"function\":"
								+ "{\"name\":\"g\"}},\"messages\":" + HI + "}",
						400, "tool_choice", "not among"),
				bad("a system message alone on anthropic",
						"{\"model\":\"claude/claude-haiku-4-5\",\"messages\":"
								+ "[{\"role\":\"system\",\"content\":\"Be brief.\"}]}",
						400, "messages", "user or assistant"),
				bad("n of 3 on anthropic", "{\"model\":\"claude/claude-haiku-4-5\",\"n\":3,\"messages\":" + HI + "}",
						400, "n", "'n' must be 1"),
				bad("top_logprobs on anthropic",
						"{\"model\":\"claude/claude-haiku-4-5\",\"top_logprobs\":2," + "\"messages\":" + HI + "}", 400,
						"top_logprobs", "log probabilities"),
				bad("json_object on anthropic",
						"{\"model\":\"claude/claude-haiku-4-5\",\"response_format\":"
								+ "{\"type\":\"json_object\"},\"messages\":" + HI + "}",
						400, "response_format", "json_schema"),
				bad("a tool without a name on anthropic",
						"{\"model\":\"claude/claude-haiku-4-5\",\"tools\":[{\"type\":"
								+ "\"function\",\"function\":{\"description\":\"d\"}}],\"messages\":" + HI + "}",
						400, "tools[0].function.name", "tools[0].function.name"),
				bad("tools as an object on anthropic",
						"{\"model\":\"claude/claude-haiku-4-5\",\"tools\":{}," + "\"messages\":" + HI + "}", 400,
						"tools", "array"),
				bad("a temperature in words on anthropic",
						"{\"model\":\"claude/claude-haiku-4-5\",\"temperature\":" + "\"hot\",\"messages\":" + HI + "}",
						400, "temperature", "number"),
				bad("a stop sequence that is an object on anthropic",
						"{\"model\":\"claude/claude-haiku-4-5\",\"stop\":[\"a\",{}]," + "\"messages\":" + HI + "}", 400,
						"stop", "array of strings"),
				bad("tool call arguments that are not JSON on anthropic",
						"{\"model\":\"claude/claude-haiku-4-5\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"},"
								+ "{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[{\"id\":\"call_1\",\"type\":"
								+ "\"function\",\"function\":{\"name\":\"f\",\"arguments\":\"{oops\"}}]},"
								+ "{\"role\":\"tool\",\"tool_call_id\":\"call_1\",\"content\":\"42\"}]}",
						400, "messages[1].tool_calls[0].function.arguments", "JSON object"),
				bad("a temperature of 1e400 on anthropic",
						"{\"model\":\"claude/claude-haiku-4-5\",\"temperature\":" + "1e400,\"messages\":" + HI + "}",
						400, "temperature", "number"));
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("malformedBodies")
	void answersAClientMistakeWithAnOpenAiErrorInTheClientsTerms(String name, String body, int status, String param,
			String says) {
		long upstream = gateway.emulator().stats().route(Route.MESSAGES).requests();
		for (boolean stream : new boolean[] { false, true }) {
			HttpResponse<String> response = post(stream ? streaming(body) : body);
			assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
			assertThat(response.headers().firstValue("content-type"))
				.hasValueSatisfying((type) -> assertThat(type).startsWith("application/json"));
			assertThat(response.headers().firstValue("x-request-id")).isPresent();
			assertThat(response.headers().firstValue("server-timing")).isPresent();
			JsonNode error = Json.parse(response.body()).path("error");
			assertThat(error.path("type").asString()).isEqualTo("invalid_request_error");
			assertThat(error.has("code")).isTrue();
			assertThat(error.path("param").isNull() ? null : error.path("param").asString()).isEqualTo(param);
			String message = error.path("message").asString();
			assertThat(message).containsIgnoringCase(says).doesNotContainPattern(INTERNALS);
		}
		assertThat(gateway.emulator().stats().route(Route.MESSAGES).requests()).as("requests sent to Anthropic")
			.isEqualTo(upstream);
	}

	/**
	 * The same body asking for a stream, where it is still an object to add the flag to.
	 */
	private static String streaming(String body) {
		return body.startsWith("{\"") ? "{\"stream\":true," + body.substring(1) : body;
	}

	private static Arguments bad(String name, String body, int status, String param, String says) {
		return Arguments.of(name, body, status, param, says);
	}

	private static HttpResponse<String> post(String body) {
		return Http.post(gateway.baseUrl() + "/v1/chat/completions", null, body);
	}

}
