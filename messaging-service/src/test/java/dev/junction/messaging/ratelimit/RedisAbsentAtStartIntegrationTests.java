package dev.junction.messaging.ratelimit;

import java.time.Duration;
import java.util.List;

import dev.junction.messaging.support.IntegrationTestSupport;
import dev.junction.messaging.support.RedisServer;
import dev.junction.messaging.support.TickingClockConfiguration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Import;
import org.springframework.http.HttpStatus;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The service starts while the configured Redis is not running, serves degraded (rate
 * limits fail open), and shares its limits through Redis once a real {@code redis-server}
 * comes up on that address.
 */
@EnabledIf("dev.junction.messaging.support.RedisServer#installed")
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "junction.messaging.admin-key=" + IntegrationTestSupport.ADMIN_KEY,
				"logging.level.io.zonky.test=warn" })
@Import(TickingClockConfiguration.class)
class RedisAbsentAtStartIntegrationTests extends IntegrationTestSupport {

	private static final RedisServer redis = RedisServer.onFreePort();

	@DynamicPropertySource
	static void redis(DynamicPropertyRegistry registry) {
		registry.add("spring.data.redis.url", redis::url);
	}

	@AfterAll
	static void stopRedis() {
		redis.stop();
	}

	@Test
	void startsWithoutRedisAndUsesItOnceItAnswers() {
		JsonNode health = get(client(null), "/health", HttpStatus.OK);
		assertThat(health.get("status").asString()).isEqualTo("DEGRADED");
		assertThat(health.get("checks").get("redis").get("status").asString()).isEqualTo("DEGRADED");
		String key = createKey(List.of("read"), List.of());
		client(key).get()
			.uri("/messages")
			.exchange()
			.expectStatus()
			.isOk()
			.expectHeader()
			.doesNotExist("X-RateLimit-Remaining")
			.expectBody(Void.class);
		redis.start();
		await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
			assertThat(get(client(null), "/health", HttpStatus.OK).get("status").asString()).isEqualTo("UP");
			client(key).get()
				.uri("/messages")
				.exchange()
				.expectStatus()
				.isOk()
				.expectHeader()
				.exists("X-RateLimit-Remaining")
				.expectBody(Void.class);
		});
	}

}
