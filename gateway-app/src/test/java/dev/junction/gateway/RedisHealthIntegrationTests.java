package dev.junction.gateway;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.function.Predicate;

import dev.junction.gateway.support.Http;
import dev.junction.gateway.support.Json;
import dev.junction.gateway.support.RedisServer;
import dev.junction.gateway.support.RunningGateway;
import dev.junction.redis.RedisConnector;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.data.redis.autoconfigure.DataRedisProperties;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Redis in the gateway's health against a real {@code redis-server}: the gateway starts
 * without it, serves degraded (200) while it is away, and uses it again once it is back.
 */
@ExtendWith(OutputCaptureExtension.class)
class RedisHealthIntegrationTests {

	private static final String BODY = "{\"model\":\"mock/echo-1\",\"max_tokens\":10,"
			+ "\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";

	private static final String DEPRECATION = "Deprecated Redis settings";

	@Test
	void startsWithoutRedisServesDegradedAndRecoversWhenRedisStopsAndStartsAgain(CapturedOutput output)
			throws Exception {
		assumeTrue(RedisServer.available(), "redis-server is not installed (.ci/run installs it)");
		try (RedisServer redis = RedisServer.notStarted();
				RunningGateway gateway = RunningGateway
					.start(List.of("spring.data.redis.url=" + redis.url(), "junction.gateway.rate-limit.requests=2",
							"junction.gateway.rate-limit.window=1h", "junction.gateway.cache.enabled=false"))) {
			assertDegraded(health(gateway));
			for (int i = 0; i < 4; i++) {
				assertThat(post(gateway).statusCode()).as("rate limits fail open").isEqualTo(200);
			}

			redis.restart();
			awaitHealth(gateway, "UP");
			assertSharedBudget(gateway, redis);

			redis.stop();
			assertDegraded(awaitHealth(gateway, "DEGRADED"));
			assertThat(post(gateway).statusCode()).as("rate limits fail open").isEqualTo(200);

			redis.restart();
			awaitHealth(gateway, "UP");
			assertSharedBudget(gateway, redis);
			assertThat(output.getOut()).doesNotContain(DEPRECATION);
		}
	}

	@Test
	void withoutRedisConfiguredHealthHasNoRedisComponent() {
		try (RunningGateway gateway = RunningGateway.start(List.of())) {
			HttpResponse<String> response = Http.get(gateway.baseUrl() + "/actuator/health");
			assertThat(response.statusCode()).isEqualTo(200);
			JsonNode health = Json.parse(response.body());
			assertThat(health.path("status").asString()).isEqualTo("UP");
			assertThat(health.path("components").has("redis")).isFalse();
			assertThat(gateway.context().getBeanNamesForType(RedisConnector.class)).isEmpty();
		}
	}

	@Test
	void readsTheFormerRedisNamesWithOneWarning(CapturedOutput output) throws Exception {
		assumeTrue(RedisServer.available(), "redis-server is not installed (.ci/run installs it)");
		try (RedisServer redis = RedisServer.start();
				RunningGateway gateway = RunningGateway
					.start(List.of("junction.redis.url=" + redis.url(), "junction.redis.timeout=700ms",
							"junction.gateway.rate-limit.requests=2", "junction.gateway.rate-limit.window=1h"))) {
			assertThat(health(gateway).path("components").path("redis").path("status").asString()).isEqualTo("UP");
			assertThat(gateway.context().getBean(DataRedisProperties.class).getTimeout()).hasMillis(700);
			assertSharedBudget(gateway, redis);
			List<String> warnings = output.getOut().lines().filter((line) -> line.contains(DEPRECATION)).toList();
			assertThat(warnings).singleElement()
				.asString()
				.contains("WARN")
				.contains("junction.redis.url -> spring.data.redis.url");
		}
	}

	/** Two requests pass and the third is refused, with the bucket in Redis. */
	private static void assertSharedBudget(RunningGateway gateway, RedisServer redis) {
		assertThat(post(gateway).statusCode()).isEqualTo(200);
		assertThat(post(gateway).statusCode()).isEqualTo(200);
		assertThat(post(gateway).statusCode()).isEqualTo(429);
		RedisClient client = RedisClient.create(redis.url());
		try (StatefulRedisConnection<String, String> connection = client.connect()) {
			assertThat(connection.sync().dbsize()).as("buckets in Redis").isPositive();
		}
		finally {
			client.shutdown();
		}
	}

	private static void assertDegraded(JsonNode health) {
		assertThat(health.path("status").asString()).isEqualTo("DEGRADED");
		assertThat(health.path("components").path("redis").path("status").asString()).isEqualTo("DEGRADED");
	}

	private static JsonNode awaitHealth(RunningGateway gateway, String status) throws InterruptedException {
		Predicate<JsonNode> reached = (health) -> status.equals(health.path("status").asString())
				&& status.equals(health.path("components").path("redis").path("status").asString());
		long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
		JsonNode health = health(gateway);
		while (!reached.test(health) && System.nanoTime() < deadline) {
			Thread.sleep(100);
			health = health(gateway);
		}
		assertThat(reached.test(health)).as("health reaches %s: %s", status, health).isTrue();
		return health;
	}

	/** The health endpoint, which answers 200 whether Redis is up or not. */
	private static JsonNode health(RunningGateway gateway) {
		HttpResponse<String> response = Http.get(gateway.baseUrl() + "/actuator/health");
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		return Json.parse(response.body());
	}

	private static HttpResponse<String> post(RunningGateway gateway) {
		return Http.post(gateway.baseUrl() + "/v1/chat/completions", null, BODY);
	}

}
