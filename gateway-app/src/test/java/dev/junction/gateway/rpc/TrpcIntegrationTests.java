package dev.junction.gateway.rpc;

import java.net.http.HttpResponse;
import java.util.List;

import dev.junction.gateway.support.Http;
import dev.junction.gateway.support.Json;
import dev.junction.gateway.support.RpcGateway;
import dev.junction.gateway.support.RpcGatewayExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/** The tRPC v11 wire format at {@code /trpc}, as {@code @trpc/server} answers it. */
class TrpcIntegrationTests {

	private static final String KEY = "Bearer trpc-test-key";

	@RegisterExtension
	static final RpcGatewayExtension gateway = new RpcGatewayExtension("junction.gateway.auth.keys[0]=trpc-test-key",
			"junction.gateway.auth.admin-keys[0]=trpc-admin-key");

	@Test
	void answersAQueryByGetWithResultData() {
		HttpResponse<String> response = Http
			.get(gateway.trpcUrl() + "calculator.add?" + RpcGateway.trpcInput("{\"a\":2,\"b\":3}"), KEY);
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(Json.parse(response.body()).at("/result/data").asDouble()).isEqualTo(5.0);
		HttpResponse<String> health = Http.get(gateway.trpcUrl() + "system.health", KEY);
		assertThat(Json.parse(health.body()).at("/result/data/status").stringValue()).isEqualTo("healthy");
	}

	@Test
	void answersAMutationByPost() {
		HttpResponse<String> response = Http.post(gateway.trpcUrl() + "ai.generateText", KEY,
				"{\"content\":\"Hello\"}");
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(Json.parse(response.body()).at("/result/data/text").stringValue()).isNotBlank();
	}

	@Test
	void answersErrorsWithTrpcEnvelopesAndStatus() {
		HttpResponse<String> zero = Http.get(gateway.trpcUrl() + "calculator.divide?" + RpcGateway.trpcInput("[1,0]"),
				KEY);
		assertThat(zero.statusCode()).isEqualTo(400);
		JsonNode error = Json.parse(zero.body()).get("error");
		assertThat(error.get("code").asInt()).isEqualTo(-32600);
		assertThat(error.at("/data/code").stringValue()).isEqualTo("BAD_REQUEST");
		assertThat(error.at("/data/httpStatus").asInt()).isEqualTo(400);
		assertThat(error.at("/data/path").stringValue()).isEqualTo("calculator.divide");
		HttpResponse<String> missing = Http.get(gateway.trpcUrl() + "no.such", KEY);
		assertThat(missing.statusCode()).isEqualTo(404);
		assertThat(Json.parse(missing.body()).at("/error/data/code").stringValue()).isEqualTo("NOT_FOUND");
		assertThat(Json.parse(missing.body()).at("/error/code").asInt()).isEqualTo(-32004);
	}

	@Test
	void refusesAMutationByGetAndAQueryByPost() {
		HttpResponse<String> get = Http
			.get(gateway.trpcUrl() + "ai.generateText?" + RpcGateway.trpcInput("{\"content\":\"x\"}"), KEY);
		assertThat(get.statusCode()).isEqualTo(405);
		assertThat(Json.parse(get.body()).at("/error/data/code").stringValue()).isEqualTo("METHOD_NOT_SUPPORTED");
		HttpResponse<String> post = Http.post(gateway.trpcUrl() + "system.health", KEY, "");
		assertThat(post.statusCode()).isEqualTo(405);
	}

	@Test
	void answersABatchInOrderWith207WhenStatusesDiffer() {
		HttpResponse<String> response = Http
			.get(gateway.trpcUrl() + "calculator.add,calculator.divide,system.health?batch=1&"
					+ RpcGateway.trpcInput("{\"0\":{\"a\":1,\"b\":2},\"1\":{\"a\":1,\"b\":0}}"), KEY);
		assertThat(response.statusCode()).isEqualTo(207);
		JsonNode batch = Json.parse(response.body());
		assertThat(batch.size()).isEqualTo(3);
		assertThat(batch.at("/0/result/data").asDouble()).isEqualTo(3.0);
		assertThat(batch.at("/1/error/data/code").stringValue()).isEqualTo("BAD_REQUEST");
		assertThat(batch.at("/2/result/data/status").stringValue()).isEqualTo("healthy");
		HttpResponse<String> allGood = Http.get(gateway.trpcUrl() + "calculator.add,calculator.multiply?batch=1&"
				+ RpcGateway.trpcInput("{\"0\":[1,2],\"1\":[3,4]}"), KEY);
		assertThat(allGood.statusCode()).isEqualTo(200);
		assertThat(Json.parse(allGood.body()).at("/1/result/data").asDouble()).isEqualTo(12.0);
	}

	@Test
	void answersAMutationBatchByPost() {
		HttpResponse<String> response = Http.post(gateway.trpcUrl() + "ai.generateText,ai.generateText?batch=1", KEY,
				"{\"0\":{\"content\":\"one\"},\"1\":{\"content\":\"two\",\"systemPrompt\":\"default\"}}");
		assertThat(response.statusCode()).isEqualTo(200);
		JsonNode batch = Json.parse(response.body());
		assertThat(batch.size()).isEqualTo(2);
		assertThat(batch.at("/1/result/data/finishReason").stringValue()).isEqualTo("stop");
	}

	@Test
	void refusesAMissingKeyWith401Envelopes() {
		HttpResponse<String> single = Http.get(gateway.trpcUrl() + "system.health", null);
		assertThat(single.statusCode()).isEqualTo(401);
		assertThat(Json.parse(single.body()).at("/error/data/code").stringValue()).isEqualTo("UNAUTHORIZED");
		assertThat(Json.parse(single.body()).at("/error/data/path").stringValue()).isEqualTo("system.health");
		HttpResponse<String> batch = Http.get(gateway.trpcUrl() + "system.health,calculator.add?batch=1", null);
		assertThat(batch.statusCode()).isEqualTo(401);
		assertThat(Json.parse(batch.body()).size()).isEqualTo(2);
	}

	@Test
	void requiresAnAdminKeyForAdminHealthCheck() {
		assertThat(Http.get(gateway.trpcUrl() + "admin.healthCheck", KEY).statusCode()).isEqualTo(403);
		HttpResponse<String> admin = Http.get(gateway.trpcUrl() + "admin.healthCheck", "Bearer trpc-admin-key");
		assertThat(admin.statusCode()).isEqualTo(200);
		assertThat(Json.parse(admin.body()).at("/result/data/jvm/threads").asInt()).isPositive();
	}

	@Test
	void reportsInvalidInputJsonAsBadRequest() {
		HttpResponse<String> response = Http.get(gateway.trpcUrl() + "calculator.add?" + RpcGateway.trpcInput("{oops"),
				KEY);
		assertThat(response.statusCode()).isEqualTo(400);
		assertThat(Json.parse(response.body()).at("/error/data/code").stringValue()).isEqualTo("BAD_REQUEST");
	}

	@Test
	void reportsOutOfRangeNumbersAsBadRequest() {
		HttpResponse<String> response = Http.post(gateway.trpcUrl() + "test.simulateAI", KEY, "{\"delayMs\":1e20}");
		assertThat(response.statusCode()).isEqualTo(400);
		JsonNode error = Json.parse(response.body()).get("error");
		assertThat(error.at("/data/code").stringValue()).isEqualTo("BAD_REQUEST");
		assertThat(error.get("message").stringValue()).isEqualTo("param 'delayMs' must be an integer from 0 to 30000");
	}

	@Test
	void reportsUnreadableInputWithoutParserInternals() {
		for (String input : List.of("{\"a\":" + "9".repeat(1200) + ",\"b\":1}", "{\"a\":1,\"b\":2} {}", "{\"a\":1,")) {
			HttpResponse<String> response = Http
				.get(gateway.trpcUrl() + "calculator.add?" + RpcGateway.trpcInput(input), KEY);
			assertThat(response.statusCode()).as(input).isEqualTo(400);
			assertThat(response.body()).as(input)
				.contains("BAD_REQUEST")
				.doesNotContainIgnoringCase("jackson")
				.doesNotContain("StreamReadConstraints", "FAIL_ON", "[Source", "JsonNode", "Feature");
		}
	}

}
