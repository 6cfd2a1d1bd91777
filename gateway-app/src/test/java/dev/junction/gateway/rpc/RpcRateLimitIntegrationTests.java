package dev.junction.gateway.rpc;

import java.net.http.HttpResponse;
import java.util.List;

import dev.junction.gateway.support.Http;
import dev.junction.gateway.support.Json;
import dev.junction.gateway.support.RpcGateway;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every RPC call takes from its caller's request budget, calculator calls included, and
 * every answer under a limit says what is left: {@code X-RateLimit-*}, and
 * {@code Retry-After} once the budget is spent, over JSON-RPC and tRPC alike.
 */
class RpcRateLimitIntegrationTests {

	private static final String ADD = "{\"jsonrpc\":\"2.0\",\"method\":\"calculator.add\",\"params\":[2,3],\"id\":1}";

	private static RpcGateway gateway;

	@BeforeAll
	static void start() {
		gateway = RpcGateway
			.start(List.of("junction.gateway.auth.keys[0]=rpc-key", "junction.gateway.auth.keys[1]=trpc-key",
					"junction.gateway.auth.keys[2]=batch-key", "junction.gateway.auth.keys[3]=ai-key",
					"junction.gateway.rate-limit.requests=3", "junction.gateway.rate-limit.window=1h"));
	}

	@AfterAll
	static void stop() {
		if (gateway != null) {
			gateway.close();
		}
	}

	@Test
	void limitsCalculatorCallsOverJsonRpcWithRateLimitHeaders() {
		for (int remaining = 2; remaining >= 0; remaining--) {
			HttpResponse<String> response = Http.post(gateway.baseUrl() + "/rpc", "Bearer rpc-key", ADD);
			assertThat(response.statusCode()).isEqualTo(200);
			assertThat(Json.parse(response.body()).get("result").asDouble()).isEqualTo(5.0);
			assertThat(response.headers().firstValue("X-RateLimit-Limit")).hasValue("3");
			assertThat(response.headers().firstValue("X-RateLimit-Remaining")).hasValue(Integer.toString(remaining));
			assertThat(response.headers().firstValue("X-RateLimit-Reset")).isPresent();
		}
		HttpResponse<String> denied = Http.post(gateway.baseUrl() + "/rpc", "Bearer rpc-key", ADD);
		assertThat(denied.statusCode()).isEqualTo(429);
		assertThat(Json.parse(denied.body()).at("/error/code").asInt()).isEqualTo(-32029);
		assertThat(denied.headers().firstValue("X-RateLimit-Limit")).hasValue("3");
		assertThat(denied.headers().firstValue("X-RateLimit-Remaining")).hasValue("0");
		assertThat(denied.headers().firstValue("X-RateLimit-Reset")).isPresent();
		assertThat(denied.headers().firstValue("Retry-After")).isPresent();
	}

	@Test
	void limitsCalculatorCallsOverTrpcWithRetryAfter() {
		String add = gateway.baseUrl() + "/trpc/calculator.add?input=%5B2%2C3%5D";
		for (int i = 0; i < 3; i++) {
			HttpResponse<String> response = Http.get(add, "Bearer trpc-key");
			assertThat(response.statusCode()).isEqualTo(200);
			assertThat(response.headers().firstValue("X-RateLimit-Remaining")).hasValue(Integer.toString(2 - i));
		}
		HttpResponse<String> denied = Http.get(add, "Bearer trpc-key");
		assertThat(denied.statusCode()).isEqualTo(429);
		assertThat(Json.parse(denied.body()).at("/error/data/code").stringValue()).isEqualTo("TOO_MANY_REQUESTS");
		assertThat(denied.headers().firstValue("Retry-After")).isPresent();
		assertThat(denied.headers().firstValue("X-RateLimit-Remaining")).hasValue("0");
	}

	@Test
	void countsEveryCallOfABatch() {
		HttpResponse<String> response = Http.post(gateway.baseUrl() + "/rpc", "Bearer batch-key",
				"[" + String.join(",", ADD, ADD, ADD, ADD) + "]");
		assertThat(response.statusCode()).isEqualTo(200);
		JsonNode answers = Json.parse(response.body());
		assertThat(answers.valueStream().filter((answer) -> answer.has("result")).count()).isEqualTo(3);
		assertThat(answers.valueStream().filter((answer) -> answer.at("/error/code").asInt() == -32029).count())
			.isEqualTo(1);
		assertThat(response.headers().firstValue("X-RateLimit-Remaining")).hasValue("0");
		assertThat(response.headers().firstValue("Retry-After")).isPresent();
	}

	@Test
	void reportsTheBudgetOnGeneratedTextToo() {
		String generate = "{\"jsonrpc\":\"2.0\",\"method\":\"ai.generateText\",\"params\":{\"content\":\"Hi\"},\"id\":1}";
		HttpResponse<String> first = Http.post(gateway.baseUrl() + "/rpc", "Bearer ai-key", generate);
		assertThat(first.statusCode()).isEqualTo(200);
		assertThat(first.headers().firstValue("X-RateLimit-Remaining")).hasValue("2");
		Http.post(gateway.baseUrl() + "/rpc", "Bearer ai-key", ADD);
		Http.post(gateway.baseUrl() + "/rpc", "Bearer ai-key", ADD);
		HttpResponse<String> denied = Http.post(gateway.baseUrl() + "/rpc", "Bearer ai-key", generate);
		assertThat(denied.statusCode()).isEqualTo(429);
		assertThat(denied.headers().firstValue("X-RateLimit-Remaining")).hasValue("0");
		assertThat(denied.headers().firstValue("Retry-After")).isPresent();
	}

}
