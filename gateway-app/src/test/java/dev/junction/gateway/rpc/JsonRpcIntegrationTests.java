package dev.junction.gateway.rpc;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import dev.junction.gateway.support.Http;
import dev.junction.gateway.support.Json;
import dev.junction.gateway.support.RpcGatewayExtension;
import dev.junction.gateway.support.RunningGateway;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * JSON-RPC 2.0 at {@code POST /rpc}, rule by rule, against the real gateway and
 * calculator.
 */
class JsonRpcIntegrationTests {

	private static final String KEY = "Bearer rpc-test-key";

	private static final String ADMIN = "Bearer rpc-admin-key";

	@RegisterExtension
	static final RpcGatewayExtension gateway = new RpcGatewayExtension("junction.gateway.auth.keys[0]=rpc-test-key",
			"junction.gateway.auth.admin-keys[0]=rpc-admin-key", "junction.gateway.http.max-body-size=4KB",
			"junction.gateway.rpc.max-simulated-delay=2s",
			"junction.gateway.rpc.system-prompts.pirate=Talk like a pirate.");

	private static HttpResponse<String> post(String body) {
		return Http.post(gateway.rpcUrl(), KEY, body);
	}

	private static JsonNode call(String body) {
		HttpResponse<String> response = post(body);
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.headers().firstValue("Content-Type"))
			.hasValueSatisfying((type) -> assertThat(type).startsWith("application/json"));
		return Json.parse(response.body());
	}

	private static void assertError(JsonNode response, int code, JsonNode id) {
		assertThat(response.get("jsonrpc").stringValue()).isEqualTo("2.0");
		assertThat(response.has("result")).isFalse();
		assertThat(response.get("error").get("code").asInt()).isEqualTo(code);
		assertThat(response.get("error").get("message").isString()).isTrue();
		assertThat(response.get("id")).isEqualTo(id);
	}

	private static void assertResult(JsonNode response, JsonNode id) {
		assertThat(response.get("jsonrpc").stringValue()).isEqualTo("2.0");
		assertThat(response.has("error")).isFalse();
		assertThat(response.has("result")).isTrue();
		assertThat(response.get("id")).isEqualTo(id);
	}

	@Test
	void echoesStringNumberAndNullIds() {
		assertResult(call("{\"jsonrpc\":\"2.0\",\"method\":\"calculator.add\",\"params\":[1,2],\"id\":\"abc\"}"),
				Json.parse("\"abc\""));
		assertResult(call("{\"jsonrpc\":\"2.0\",\"method\":\"calculator.add\",\"params\":[1,2],\"id\":42}"),
				Json.parse("42"));
		assertResult(call("{\"jsonrpc\":\"2.0\",\"method\":\"calculator.add\",\"params\":[1,2],\"id\":1.5}"),
				Json.parse("1.5"));
		assertResult(call("{\"jsonrpc\":\"2.0\",\"method\":\"calculator.add\",\"params\":[1,2],\"id\":null}"),
				Json.parse("null"));
	}

	@Test
	void acceptsParamsByPositionAndByName() {
		JsonNode byPosition = call(
				"{\"jsonrpc\":\"2.0\",\"method\":\"calculator.subtract\",\"params\":[10,4],\"id\":1}");
		assertThat(byPosition.get("result").asDouble()).isEqualTo(6.0);
		JsonNode byName = call(
				"{\"jsonrpc\":\"2.0\",\"method\":\"calculator.subtract\",\"params\":{\"b\":4,\"a\":10},\"id\":2}");
		assertThat(byName.get("result").asDouble()).isEqualTo(6.0);
	}

	@Test
	void answersANotificationWithNoContent() {
		HttpResponse<String> response = post("{\"jsonrpc\":\"2.0\",\"method\":\"calculator.add\",\"params\":[1,2]}");
		assertThat(response.statusCode()).isEqualTo(204);
		assertThat(response.body()).isEmpty();
	}

	@Test
	void answersANotificationOfAnUnknownMethodWithNoContent() {
		HttpResponse<String> response = post("{\"jsonrpc\":\"2.0\",\"method\":\"no.such\"}");
		assertThat(response.statusCode()).isEqualTo(204);
		assertThat(response.body()).isEmpty();
	}

	@Test
	void reportsParseErrorWithNullId() {
		assertError(call("{\"jsonrpc\":\"2.0\",\"method\":\"foobar,\"params\":\"bar\",\"baz]"), -32700,
				Json.parse("null"));
		assertError(call(""), -32700, Json.parse("null"));
	}

	@Test
	void reportsParseErrorForABatchThatIsNotJson() {
		assertError(call(
				"[{\"jsonrpc\":\"2.0\",\"method\":\"system.health\",\"id\":\"1\"},{\"jsonrpc\":\"2.0\",\"method\"]"),
				-32700, Json.parse("null"));
	}

	@Test
	void reportsInvalidRequests() {
		assertError(call("{\"jsonrpc\":\"2.0\",\"method\":1,\"params\":\"bar\"}"), -32600, Json.parse("null"));
		assertError(call("{\"jsonrpc\":\"1.0\",\"method\":\"system.health\",\"id\":7}"), -32600, Json.parse("7"));
		assertError(call("{\"method\":\"system.health\",\"id\":7}"), -32600, Json.parse("7"));
		assertError(call("{\"jsonrpc\":\"2.0\",\"method\":\"calculator.add\",\"params\":3,\"id\":8}"), -32600,
				Json.parse("8"));
		assertError(call("{\"jsonrpc\":\"2.0\",\"method\":\"system.health\",\"id\":{\"x\":1}}"), -32600,
				Json.parse("null"));
		assertError(call("42"), -32600, Json.parse("null"));
	}

	@Test
	void reportsMethodNotFound() {
		JsonNode response = call("{\"jsonrpc\":\"2.0\",\"method\":\"foobar\",\"id\":\"1\"}");
		assertError(response, -32601, Json.parse("\"1\""));
	}

	@Test
	void reportsInvalidParamsWithTheParamAtFault() {
		JsonNode missing = call("{\"jsonrpc\":\"2.0\",\"method\":\"calculator.add\",\"params\":{\"a\":1},\"id\":1}");
		assertError(missing, -32602, Json.parse("1"));
		assertThat(missing.get("error").get("data").get("param").stringValue()).isEqualTo("b");
		JsonNode mistyped = call("{\"jsonrpc\":\"2.0\",\"method\":\"calculator.add\",\"params\":[1,\"two\"],\"id\":2}");
		assertError(mistyped, -32602, Json.parse("2"));
		JsonNode extra = call("{\"jsonrpc\":\"2.0\",\"method\":\"calculator.add\",\"params\":[1,2,3],\"id\":3}");
		assertError(extra, -32602, Json.parse("3"));
		JsonNode unknown = call(
				"{\"jsonrpc\":\"2.0\",\"method\":\"calculator.add\",\"params\":{\"a\":1,\"b\":2,\"c\":3},\"id\":4}");
		assertError(unknown, -32602, Json.parse("4"));
	}

	@Test
	void answersAnEmptyBatchWithOneInvalidRequest() {
		JsonNode response = call("[]");
		assertThat(response.isObject()).isTrue();
		assertError(response, -32600, Json.parse("null"));
	}

	@Test
	void answersEachInvalidBatchEntryWithItsOwnError() {
		JsonNode response = call("[1]");
		assertThat(response.isArray()).isTrue();
		assertThat(response.size()).isEqualTo(1);
		assertError(response.get(0), -32600, Json.parse("null"));
		JsonNode three = call("[1,2,3]");
		assertThat(three.size()).isEqualTo(3);
		three.forEach((entry) -> assertError(entry, -32600, Json.parse("null")));
	}

	@Test
	void answersAMixedBatchInOrderLeavingOutNotifications() {
		JsonNode response = call("""
				[
				 {"jsonrpc":"2.0","method":"calculator.add","params":[1,2],"id":"1"},
				 {"jsonrpc":"2.0","method":"calculator.add","params":[7]},
				 {"jsonrpc":"2.0","method":"calculator.subtract","params":[42,23],"id":"2"},
				 {"foo":"boo"},
				 {"jsonrpc":"2.0","method":"foo.get","params":{"name":"myself"},"id":"5"},
				 {"jsonrpc":"2.0","method":"system.health","id":"9"}
				]""");
		assertThat(response.size()).isEqualTo(5);
		assertResult(response.get(0), Json.parse("\"1\""));
		assertThat(response.get(0).get("result").asDouble()).isEqualTo(3.0);
		assertResult(response.get(1), Json.parse("\"2\""));
		assertThat(response.get(1).get("result").asDouble()).isEqualTo(19.0);
		assertError(response.get(2), -32600, Json.parse("null"));
		assertError(response.get(3), -32601, Json.parse("\"5\""));
		assertResult(response.get(4), Json.parse("\"9\""));
	}

	@Test
	void answersAnAllNotificationBatchWithNoBody() {
		HttpResponse<String> response = post("""
				[{"jsonrpc":"2.0","method":"calculator.add","params":[1,2]},
				 {"jsonrpc":"2.0","method":"system.health"}]""");
		assertThat(response.statusCode()).isEqualTo(204);
		assertThat(response.body()).isEmpty();
	}

	@Test
	void runsBatchMembersConcurrentlyAndAnswersInOrder() {
		Instant start = Instant.now();
		JsonNode response = call("""
				[{"jsonrpc":"2.0","method":"test.simulateAI","params":{"delayMs":1200},"id":1},
				 {"jsonrpc":"2.0","method":"test.simulateAI","params":{"delayMs":100},"id":2},
				 {"jsonrpc":"2.0","method":"test.simulateAI","params":[900],"id":3}]""");
		Duration elapsed = Duration.between(start, Instant.now());
		assertThat(elapsed).as("less than the delays one after another").isLessThan(Duration.ofMillis(2200));
		assertThat(response.size()).isEqualTo(3);
		for (int i = 0; i < 3; i++) {
			assertResult(response.get(i), Json.parse(Integer.toString(i + 1)));
		}
		assertThat(response.get(0).get("result").get("delayMs").asInt()).isEqualTo(1200);
		assertThat(response.get(2).get("result").get("delayMs").asInt()).isEqualTo(900);
	}

	@Test
	void boundsTheSimulatedDelay() {
		JsonNode response = call(
				"{\"jsonrpc\":\"2.0\",\"method\":\"test.simulateAI\",\"params\":{\"delayMs\":5000},\"id\":1}");
		assertError(response, -32602, Json.parse("1"));
	}

	@Test
	void reportsHealthWithItsDependencies() {
		JsonNode result = call("{\"jsonrpc\":\"2.0\",\"method\":\"system.health\",\"id\":1}").get("result");
		assertThat(result.get("status").stringValue()).isEqualTo("healthy");
		assertThat(result.get("uptime").asDouble()).isPositive();
		assertThat(result.get("version").isString()).isTrue();
		assertThat(result.at("/dependencies/calculator/grpcStatus").stringValue()).isEqualTo("SERVING");
		assertThat(result.at("/dependencies/providers/configured").toString()).contains("mock");
	}

	@Test
	void generatesTextThroughThePipeline() {
		JsonNode result = call("""
				{"jsonrpc":"2.0","method":"ai.generateText",
				 "params":{"content":"Hey there, nice to meet you","systemPrompt":"default","maxTokens":50},"id":1}""")
			.get("result");
		assertThat(result.get("text").stringValue()).isNotBlank();
		assertThat(result.get("model").stringValue()).contains("echo-1");
		assertThat(result.get("usage").get("totalTokens").asLong()).isPositive();
		assertThat(result.get("finishReason").stringValue()).isEqualTo("stop");
		JsonNode positional = call("""
				{"jsonrpc":"2.0","method":"ai.generateText","params":["Hello","pirate","mock/echo-1"],"id":2}""");
		assertResult(positional, Json.parse("2"));
	}

	@Test
	void reportsAnUnknownModelAsInvalidParams() {
		JsonNode response = call("""
				{"jsonrpc":"2.0","method":"ai.generateText","params":{"content":"Hi","model":"nowhere/x"},"id":1}""");
		assertError(response, -32602, Json.parse("1"));
		assertThat(response.at("/error/data/code").stringValue()).isEqualTo("model_not_found");
	}

	@Test
	void publishesAnOpenRpcDocumentOfEveryMethod() {
		JsonNode document = call("{\"jsonrpc\":\"2.0\",\"method\":\"rpc.discover\",\"id\":1}").get("result");
		assertThat(document.get("openrpc").stringValue()).startsWith("1.");
		List<String> names = document.get("methods")
			.valueStream()
			.map((method) -> method.get("name").stringValue())
			.toList();
		assertThat(names).contains("system.health", "admin.healthCheck", "ai.generateText", "test.simulateAI",
				"calculator.add", "calculator.subtract", "calculator.multiply", "calculator.divide", "rpc.discover");
		JsonNode add = document.get("methods")
			.valueStream()
			.filter((method) -> method.get("name").stringValue().equals("calculator.add"))
			.findFirst()
			.orElseThrow();
		assertThat(add.at("/params/0/name").stringValue()).isEqualTo("a");
		assertThat(add.at("/params/0/schema/type").stringValue()).isEqualTo("number");
	}

	@Test
	void requiresAnAdminKeyForAdminHealthCheck() {
		String request = "{\"jsonrpc\":\"2.0\",\"method\":\"admin.healthCheck\",\"id\":1}";
		JsonNode refused = call(request);
		assertError(refused, -32002, Json.parse("1"));
		assertThat(refused.at("/error/message").stringValue()).isEqualTo("Forbidden");
		HttpResponse<String> admin = Http.post(gateway.rpcUrl(), ADMIN, request);
		assertThat(admin.statusCode()).isEqualTo(200);
		JsonNode result = Json.parse(admin.body()).get("result");
		assertThat(result.get("status").stringValue()).isEqualTo("healthy");
		assertThat(result.at("/checks/calculator").stringValue()).isEqualTo("healthy");
		assertThat(result.get("allHealthy").asBoolean()).isTrue();
		assertThat(result.get("jvm").get("threads").asInt()).isPositive();
	}

	@Test
	void refusesAMissingKeyWith401AndAJsonRpcError() {
		HttpResponse<String> response = Http.post(gateway.rpcUrl(), null,
				"{\"jsonrpc\":\"2.0\",\"method\":\"system.health\",\"id\":1}");
		assertThat(response.statusCode()).isEqualTo(401);
		assertError(Json.parse(response.body()), -32001, Json.parse("null"));
	}

	@Test
	void refusesAnOversizedBodyBeforeParsingWith413() {
		String big = "{\"jsonrpc\":\"2.0\",\"method\":\"ai.generateText\",\"params\":{\"content\":\"" + "x".repeat(8192)
				+ "\"},\"id\":1}";
		HttpResponse<String> response = post(big);
		assertThat(response.statusCode()).isEqualTo(413);
		assertError(Json.parse(response.body()), -32600, Json.parse("null"));
	}

	@Test
	void refusesOtherHttpMethods() {
		HttpResponse<String> response = Http.get(gateway.rpcUrl(), KEY);
		assertThat(response.statusCode()).isEqualTo(405);
		assertError(Json.parse(response.body()), -32600, Json.parse("null"));
	}

	@Test
	void reportsStandardTitlesWithTheDetailsInData() {
		JsonNode missing = call("{\"jsonrpc\":\"2.0\",\"method\":\"calculator.add\",\"params\":{\"a\":1},\"id\":1}");
		assertThat(missing.at("/error/message").stringValue()).isEqualTo("Invalid params");
		assertThat(missing.at("/error/data/message").stringValue()).isEqualTo("missing required param 'b'");
		JsonNode parse = call("{\"jsonrpc\":");
		assertThat(parse.at("/error/message").stringValue()).isEqualTo("Parse error");
		assertThat(parse.at("/error/data/message").stringValue()).isNotBlank();
		JsonNode unknown = call("{\"jsonrpc\":\"2.0\",\"method\":\"no.such\",\"id\":2}");
		assertThat(unknown.at("/error/message").stringValue()).isEqualTo("Method not found: no.such");
	}

	@Test
	void reportsOutOfRangeNumbersAsInvalidParamsNamingTheParam() {
		for (String params : List.of("{\"delayMs\":1e20}", "{\"delay\":1e20}", "{\"delay\":-1}", "{\"delayMs\":1.5}",
				"{\"delay\":123456789012345678901234567890}", "{\"delay\":\"5\"}")) {
			JsonNode response = call(
					"{\"jsonrpc\":\"2.0\",\"method\":\"test.simulateAI\",\"params\":" + params + ",\"id\":1}");
			assertError(response, -32602, Json.parse("1"));
			assertThat(response.at("/error/data/message").stringValue()).as(params)
				.matches("param 'delay(Ms)?' must be an integer.*");
		}
		JsonNode tokens = call("""
				{"jsonrpc":"2.0","method":"ai.generateText","params":{"content":"Hi","maxTokens":1e20},"id":2}""");
		assertError(tokens, -32602, Json.parse("2"));
		assertThat(tokens.at("/error/data/message").stringValue())
			.isEqualTo("param 'maxTokens' must be an integer from 1 to 2147483647");
		JsonNode nested = call(
				"""
						{"jsonrpc":"2.0","method":"ai.generateText","params":{"content":"Hi","options":{"maxTokens":1e20}},"id":3}""");
		assertError(nested, -32602, Json.parse("3"));
		assertThat(nested.at("/error/data/param").stringValue()).isEqualTo("options.maxTokens");
		JsonNode huge = call("{\"jsonrpc\":\"2.0\",\"method\":\"calculator.add\",\"params\":[1e400,1],\"id\":4}");
		assertError(huge, -32602, Json.parse("4"));
		assertThat(huge.at("/error/data/message").stringValue()).isEqualTo("param 'a' must be a finite number");
	}

	@Test
	void neverLeaksParserInternalsInErrorMessages() {
		List<String> bodies = List.of("{\"jsonrpc\":\"2.0\",\"method\":\"system.health\",\"id\":1} {\"id\":2}",
				"{\"jsonrpc\":\"2.0\",\"method\":\"system.health\",\"id\":1} x",
				"{\"jsonrpc\":\"2.0\",\"method\":\"calculator.add\",\"params\":[" + "9".repeat(1200) + ",1],\"id\":1}",
				"{\"jsonrpc\":\"2.0\",\"method\":\"system.health\",\"id\":1", "{\"jsonrpc\":'2.0'}", "[1,]");
		for (String body : bodies) {
			HttpResponse<String> response = post(body);
			assertThat(response.statusCode()).isEqualTo(200);
			JsonNode error = Json.parse(response.body()).get("error");
			assertThat(error.get("code").asInt()).as(body).isEqualTo(-32700);
			assertThat(response.body()).as(body)
				.doesNotContainIgnoringCase("jackson")
				.doesNotContain("StreamReadConstraints", "FAIL_ON", "[Source", "JsonNode", "Feature");
		}
		assertThat(Json.parse(post(bodies.get(0)).body()).at("/error/data/message").stringValue())
			.startsWith("there is more after the JSON value");
		assertThat(Json.parse(post(bodies.get(2)).body()).at("/error/data/message").stringValue())
			.startsWith("a number has too many digits");
	}

	@Test
	void simulatesAiWithTheReferenceParamsAndResult() {
		JsonNode result = call("""
				{"jsonrpc":"2.0","method":"test.simulateAI","params":{"delay":120,"message":"Load test"},"id":1}""")
			.get("result");
		assertThat(result.get("success").asBoolean()).isTrue();
		assertThat(result.get("message").stringValue()).isEqualTo("Load test");
		assertThat(result.get("simulatedDelay").asLong()).isEqualTo(120);
		assertThat(result.get("actualDelay").asLong()).isBetween(120L, 5000L);
		assertThat(Instant.parse(result.get("timestamp").stringValue())).isBeforeOrEqualTo(Instant.now());
		JsonNode defaults = call(
				"{\"jsonrpc\":\"2.0\",\"method\":\"test.simulateAI\",\"params\":{\"delay\":0},\"id\":2}")
			.get("result");
		assertThat(defaults.get("message").stringValue()).isEqualTo("Test message");
	}

	@Test
	void generatesTextWithTheReferenceParamsAndResultShape() {
		JsonNode result = call(
				"""
						{"jsonrpc":"2.0","method":"ai.generateText","params":{"content":"Hey there","systemPrompt":"code_review",
						 "provider":"mock","metadata":{"name":"greeting.txt","type":"text"},
						 "options":{"model":"echo-1","maxTokens":50,"temperature":0.3}},"id":1}""")
			.get("result");
		assertThat(result.get("success").asBoolean()).isTrue();
		JsonNode data = result.get("data");
		assertThat(data.get("content").stringValue()).isNotBlank().isEqualTo(result.get("text").stringValue());
		assertThat(data.get("provider").stringValue()).isEqualTo("mock");
		assertThat(data.get("model").stringValue()).contains("echo-1");
		assertThat(data.at("/usage/totalTokens").asLong()).isPositive();
		assertThat(data.get("finishReason").stringValue()).isEqualTo("stop");
		assertThat(data.get("requestId").stringValue()).isNotBlank();
		JsonNode providerOnly = call(
				"""
						{"jsonrpc":"2.0","method":"ai.generateText","params":{"content":"Hi","systemPrompt":"default","provider":"mock"},"id":2}""");
		assertThat(providerOnly.at("/result/data/provider").stringValue()).isEqualTo("mock");
	}

	@Test
	void reportsAnUnconfiguredProviderAsInvalidParams() {
		JsonNode response = call(
				"""
						{"jsonrpc":"2.0","method":"ai.generateText","params":{"content":"Hi","systemPrompt":"default","provider":"google"},"id":1}""");
		assertError(response, -32602, Json.parse("1"));
		assertThat(response.at("/error/data/param").stringValue()).isEqualTo("provider");
		assertThat(response.at("/error/data/message").stringValue()).contains("'google' is not configured");
		JsonNode both = call(
				"""
						{"jsonrpc":"2.0","method":"ai.generateText","params":{"content":"Hi","maxTokens":5,"options":{"maxTokens":6}},"id":2}""");
		assertError(both, -32602, Json.parse("2"));
	}

	@Test
	void describesTheConfiguredProviders() {
		JsonNode providers = call("{\"jsonrpc\":\"2.0\",\"method\":\"ai.listProviders\",\"id\":1}").get("result");
		assertThat(providers.at("/providers/0/name").stringValue()).isEqualTo("mock");
		assertThat(providers.at("/providers/0/type").stringValue()).isEqualTo("mock");
		assertThat(providers.at("/providers/0/models").toString()).contains("echo-1");
		assertThat(providers.get("lastUpdated").isString()).isTrue();
		JsonNode byok = call("{\"jsonrpc\":\"2.0\",\"method\":\"ai.listProvidersBYOK\",\"id\":2}").get("result");
		assertThat(byok.get("providers").isEmpty()).isTrue();
		JsonNode one = call("""
				{"jsonrpc":"2.0","method":"ai.listAllowedModels","params":{"provider":"mock"},"id":3}""").get("result");
		assertThat(one.get("provider").stringValue()).isEqualTo("mock");
		assertThat(one.get("count").asInt()).isEqualTo(one.get("models").size()).isPositive();
		JsonNode all = call("{\"jsonrpc\":\"2.0\",\"method\":\"ai.listAllowedModels\",\"id\":4}").get("result");
		assertThat(all.get("mock").toString()).contains("echo-1");
		JsonNode registry = call("{\"jsonrpc\":\"2.0\",\"method\":\"ai.getRegistryHealth\",\"id\":5}").get("result");
		assertThat(registry.get("status").stringValue()).isEqualTo("healthy");
		assertThat(registry.get("providers").asInt()).isEqualTo(1);
		JsonNode valid = call(
				"""
						{"jsonrpc":"2.0","method":"ai.validateProvider","params":{"provider":"anthropic","apiKey":"sk-ant-0123456789abcdefghij"},"id":6}""")
			.get("result");
		assertThat(valid.get("isValid").asBoolean()).isTrue();
		JsonNode invalid = call(
				"""
						{"jsonrpc":"2.0","method":"ai.validateProvider","params":{"provider":"openai","apiKey":"nope"},"id":7}""")
			.get("result");
		assertThat(invalid.get("isValid").asBoolean()).isFalse();
		assertThat(invalid.toString()).doesNotContain("nope");
	}

	@Test
	void refusesAdminProceduresToEveryoneWhenNoAdminKeyIsConfigured() {
		try (RunningGateway open = RunningGateway
			.start(List.of("junction.gateway.calculator.address=" + gateway.calculator().address()))) {
			HttpResponse<String> response = Http.post(open.baseUrl() + "/rpc", null,
					"{\"jsonrpc\":\"2.0\",\"method\":\"admin.healthCheck\",\"id\":1}");
			JsonNode error = Json.parse(response.body()).get("error");
			assertThat(error.get("code").asInt()).isEqualTo(-32001);
			assertThat(error.get("message").stringValue()).isEqualTo("Unauthorized");
			JsonNode status = Json.parse(Http.post(open.baseUrl() + "/rpc", "Bearer anything",
					"{\"jsonrpc\":\"2.0\",\"method\":\"admin.status\",\"id\":2}")
				.body());
			assertThat(status.has("result")).isFalse();
		}
		JsonNode status = Json
			.parse(Http
				.post(gateway.rpcUrl(), ADMIN,
						"{\"jsonrpc\":\"2.0\",\"method\":\"admin.status\",\"params\":{\"detailed\":true},\"id\":3}")
				.body())
			.get("result");
		assertThat(status.at("/memory/used").asLong()).isPositive();
		assertThat(status.at("/system/javaVersion").isString()).isTrue();
	}

}
