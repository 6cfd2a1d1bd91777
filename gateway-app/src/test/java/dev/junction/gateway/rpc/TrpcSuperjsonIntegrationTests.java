package dev.junction.gateway.rpc;

import java.net.http.HttpResponse;

import dev.junction.gateway.support.Http;
import dev.junction.gateway.support.Json;
import dev.junction.gateway.support.RpcGateway;
import dev.junction.gateway.support.RpcGatewayExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code /trpc} with {@code junction.gateway.rpc.trpc-transformer=superjson}: superjson
 * envelopes in and out, batches and refusals included.
 */
class TrpcSuperjsonIntegrationTests {

	private static final String KEY = "Bearer superjson-key";

	@RegisterExtension
	static final RpcGatewayExtension gateway = new RpcGatewayExtension("junction.gateway.auth.keys[0]=superjson-key",
			"junction.gateway.rpc.trpc-transformer=superjson");

	@Test
	void readsAndWritesSuperjsonEnvelopes() {
		HttpResponse<String> sum = Http
			.get(gateway.trpcUrl() + "calculator.add?" + RpcGateway.trpcInput("{\"json\":{\"a\":2,\"b\":3}}"), KEY);
		assertThat(sum.statusCode()).isEqualTo(200);
		assertThat(Json.parse(sum.body()).at("/result/data/json").asDouble()).isEqualTo(5.0);
		HttpResponse<String> health = Http.get(gateway.trpcUrl() + "system.health?"
				+ RpcGateway.trpcInput("{\"meta\":{\"values\":[\"undefined\"],\"v\":1}}"), KEY);
		assertThat(Json.parse(health.body()).at("/result/data/json/status").stringValue()).isEqualTo("healthy");
		HttpResponse<String> none = Http.get(gateway.trpcUrl() + "system.health", KEY);
		assertThat(Json.parse(none.body()).at("/result/data/json/status").stringValue()).isEqualTo("healthy");
	}

	@Test
	void honoursUndefinedAndBigintAnnotations() {
		HttpResponse<String> response = Http.post(gateway.trpcUrl() + "test.simulateAI", KEY,
				"""
						{"json":{"delay":"40","message":null},"meta":{"values":{"delay":["bigint"],"message":["undefined"]},"v":1}}""");
		assertThat(response.statusCode()).isEqualTo(200);
		JsonNode data = Json.parse(response.body()).at("/result/data/json");
		assertThat(data.get("simulatedDelay").asLong()).isEqualTo(40);
		assertThat(data.get("message").stringValue()).isEqualTo("Test message");
	}

	@Test
	void refusesSpecialNumbersInSuperjsonErrorEnvelopes() {
		HttpResponse<String> response = Http.get(
				gateway.trpcUrl() + "calculator.add?" + RpcGateway
					.trpcInput("{\"json\":{\"a\":\"NaN\",\"b\":1},\"meta\":{\"values\":{\"a\":[\"number\"]},\"v\":1}}"),
				KEY);
		assertThat(response.statusCode()).isEqualTo(400);
		JsonNode error = Json.parse(response.body()).at("/error/json");
		assertThat(error.at("/data/code").stringValue()).isEqualTo("BAD_REQUEST");
		assertThat(error.get("message").stringValue()).isEqualTo("param 'a' must be a finite number");
	}

	@Test
	void answersBatchesMemberByMember() {
		HttpResponse<String> response = Http.get(gateway.trpcUrl() + "calculator.add,calculator.divide?batch=1&"
				+ RpcGateway.trpcInput("{\"0\":{\"json\":{\"a\":1,\"b\":2}},\"1\":{\"json\":{\"a\":1,\"b\":0}}}"), KEY);
		assertThat(response.statusCode()).isEqualTo(207);
		JsonNode batch = Json.parse(response.body());
		assertThat(batch.at("/0/result/data/json").asDouble()).isEqualTo(3.0);
		assertThat(batch.at("/1/error/json/data/code").stringValue()).isEqualTo("BAD_REQUEST");
	}

	@Test
	void refusesAMissingKeyInASuperjsonEnvelope() {
		HttpResponse<String> response = Http.get(gateway.trpcUrl() + "system.health", null);
		assertThat(response.statusCode()).isEqualTo(401);
		assertThat(Json.parse(response.body()).at("/error/json/data/code").stringValue()).isEqualTo("UNAUTHORIZED");
	}

}
