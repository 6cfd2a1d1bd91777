package dev.junction.gateway.rpc;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;

import dev.junction.gateway.support.Http;
import dev.junction.gateway.support.Json;
import dev.junction.gateway.support.RedisServer;
import dev.junction.gateway.support.RpcGateway;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Redis in {@code system.health} and {@code admin.healthCheck}, from the {@code redis}
 * health indicator, against a real {@code redis-server}: up, stopped, and not configured.
 */
class SystemProceduresRedisIntegrationTests {

	private static final String KEY = "Bearer redis-health-key";

	private static final String ADMIN = "Bearer redis-health-admin";

	private static final List<String> KEYS = List.of("junction.gateway.auth.keys[0]=redis-health-key",
			"junction.gateway.auth.admin-keys[0]=redis-health-admin");

	@Test
	void reportsRedisUpThenDegradedOnceItStops() throws Exception {
		assumeTrue(RedisServer.available(), "redis-server is not installed (.ci/run installs it)");
		try (RedisServer redis = RedisServer.start();
				RpcGateway gateway = RpcGateway.start(with("spring.data.redis.url=" + redis.url()))) {
			JsonNode health = awaitRedis(gateway, "up");
			assertThat(health.path("status").stringValue()).isEqualTo("healthy");
			assertThat(health.at("/dependencies/redis").toString()).isEqualTo("{\"status\":\"up\"}");
			JsonNode check = adminHealthCheck(gateway);
			assertThat(check.path("status").stringValue()).isEqualTo("healthy");
			assertThat(check.at("/dependencies/redis/status").stringValue()).isEqualTo("up");
			assertThat(check.at("/checks/redis").stringValue()).isEqualTo("healthy");
			assertThat(check.path("allHealthy").asBoolean()).isTrue();
			assertThat(trpcHealth(gateway).at("/dependencies/redis/status").stringValue()).isEqualTo("up");

			redis.stop();
			health = awaitRedis(gateway, "degraded");
			assertThat(health.path("status").stringValue()).isEqualTo("degraded");
			assertThat(health.at("/dependencies/calculator/status").stringValue()).isEqualTo("up");
			assertThat(health.at("/dependencies/redis").toString()).isEqualTo("{\"status\":\"degraded\"}");
			check = adminHealthCheck(gateway);
			assertThat(check.path("status").stringValue()).isEqualTo("degraded");
			assertThat(check.at("/dependencies/redis/status").stringValue()).isEqualTo("degraded");
			assertThat(check.at("/checks/redis").stringValue()).isEqualTo("unhealthy");
			assertThat(check.at("/checks/calculator").stringValue()).isEqualTo("healthy");
			assertThat(check.path("allHealthy").asBoolean()).isFalse();
			assertThat(trpcHealth(gateway).at("/dependencies/redis/status").stringValue()).isEqualTo("degraded");
		}
	}

	@Test
	void leavesRedisOutWhenItIsNotConfigured() {
		try (RpcGateway gateway = RpcGateway.start(KEYS)) {
			JsonNode health = systemHealth(gateway);
			assertThat(health.path("status").stringValue()).isEqualTo("healthy");
			assertThat(health.path("dependencies").has("redis")).isFalse();
			assertThat(health.path("dependencies").has("calculator")).isTrue();
			JsonNode check = adminHealthCheck(gateway);
			assertThat(check.path("dependencies").has("redis")).isFalse();
			assertThat(check.path("checks").has("redis")).isFalse();
			assertThat(check.path("allHealthy").asBoolean()).isTrue();
		}
	}

	private static List<String> with(String property) {
		return Stream.concat(KEYS.stream(), Stream.of(property)).toList();
	}

	/**
	 * {@code system.health} once Redis has reached {@code status} (Lettuce notices a stop
	 * within moments).
	 */
	private static JsonNode awaitRedis(RpcGateway gateway, String status) throws InterruptedException {
		long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
		JsonNode health = systemHealth(gateway);
		while (!status.equals(health.at("/dependencies/redis/status").asString()) && System.nanoTime() < deadline) {
			Thread.sleep(100);
			health = systemHealth(gateway);
		}
		assertThat(health.at("/dependencies/redis/status").asString()).as("%s", health).isEqualTo(status);
		return health;
	}

	private static JsonNode systemHealth(RpcGateway gateway) {
		return rpc(gateway, KEY, "system.health");
	}

	private static JsonNode adminHealthCheck(RpcGateway gateway) {
		return rpc(gateway, ADMIN, "admin.healthCheck");
	}

	private static JsonNode rpc(RpcGateway gateway, String key, String method) {
		HttpResponse<String> response = Http.post(gateway.baseUrl() + "/rpc", key,
				"{\"jsonrpc\":\"2.0\",\"method\":\"" + method + "\",\"id\":1}");
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		JsonNode result = Json.parse(response.body()).path("result");
		assertThat(result.isObject()).as(response.body()).isTrue();
		return result;
	}

	private static JsonNode trpcHealth(RpcGateway gateway) {
		HttpResponse<String> response = Http.get(gateway.baseUrl() + "/trpc/system.health", KEY);
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		return Json.parse(response.body()).at("/result/data");
	}

}
