package dev.junction.messaging.ratelimit;

import java.time.Duration;
import java.util.List;
import java.util.UUID;

import dev.junction.messaging.MessagingApplication;
import dev.junction.messaging.support.IntegrationTestSupport;
import dev.junction.messaging.support.RedisServer;
import dev.junction.messaging.support.TestHttp;
import dev.junction.messaging.support.TickingClockConfiguration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;
import org.springframework.http.HttpStatus;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.reactive.server.WebTestClient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Rate limits shared through a real Redis server ({@code redis-server} from the PATH; the
 * test is skipped where none is installed): two service instances draw from one bucket,
 * and the service serves on, degraded, while Redis is away.
 */
@EnabledIf("dev.junction.messaging.support.RedisServer#installed")
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "junction.messaging.admin-key=" + IntegrationTestSupport.ADMIN_KEY,
				"junction.messaging.rate-limit.messages=4", "logging.level.io.zonky.test=warn" })
@Import(TickingClockConfiguration.class)
class RedisRateLimitIntegrationTests extends IntegrationTestSupport {

	private static RedisServer redis;

	@Autowired
	private Environment environment;

	@DynamicPropertySource
	static void redis(DynamicPropertyRegistry registry) {
		redis = RedisServer.onFreePort().start();
		registry.add("spring.data.redis.url", redis::url);
	}

	@AfterAll
	static void stopRedis() {
		if (redis != null) {
			redis.stop();
		}
	}

	@Test
	void serviceInstancesShareOneBucketPerKey() {
		String key = createKey(List.of("read"), List.of());
		WebTestClient first = client(key);
		UUID chat = createChat(createInstance());
		for (int remaining = 3; remaining >= 1; remaining--) {
			first.get()
				.uri("/chats/{id}/messages", chat)
				.exchange()
				.expectStatus()
				.isOk()
				.expectHeader()
				.valueEquals("X-RateLimit-Remaining", Integer.toString(remaining))
				.expectBody(Void.class);
		}
		// The second instance names Redis by the former key, still read for this release.
		try (ConfigurableApplicationContext secondInstance = startSecondInstance(
				"--junction.redis.url=" + redis.url())) {
			int port = ((WebServerApplicationContext) secondInstance).getWebServer().getPort();
			WebTestClient second = TestHttp.webTestClient(port).defaultHeader("x-api-key", key).build();
			second.get()
				.uri("/chats/{id}/messages", chat)
				.exchange()
				.expectStatus()
				.isOk()
				.expectHeader()
				.valueEquals("X-RateLimit-Remaining", "0")
				.expectBody(Void.class);
			second.get()
				.uri("/messages?chatId={id}", chat)
				.exchange()
				.expectStatus()
				.isEqualTo(HttpStatus.TOO_MANY_REQUESTS)
				.expectBody(Void.class);
		}
		first.get()
			.uri("/messages?chatId={id}", chat)
			.exchange()
			.expectStatus()
			.isEqualTo(HttpStatus.TOO_MANY_REQUESTS)
			.expectHeader()
			.exists("Retry-After")
			.expectBody(Void.class);
	}

	@Test
	void servesDegradedWhileRedisIsAwayAndSharesLimitsAgainWhenItIsBack() {
		JsonNode health = get(client(null), "/health", HttpStatus.OK);
		assertThat(health.get("status").asString()).isEqualTo("UP");
		assertThat(health.get("checks").get("redis").get("status").asString()).isEqualTo("UP");
		String key = createKey(List.of("read"), List.of());
		redis.stop();
		try {
			client(key).get()
				.uri("/messages")
				.exchange()
				.expectStatus()
				.isOk()
				.expectHeader()
				.doesNotExist("X-RateLimit-Remaining")
				.expectBody(Void.class);
			JsonNode degraded = get(client(null), "/health", HttpStatus.OK);
			assertThat(degraded.get("status").asString()).isEqualTo("DEGRADED");
			assertThat(degraded.get("checks").get("redis").get("status").asString()).isEqualTo("DEGRADED");
			assertThat(degraded.get("checks").get("redis").get("error").asString()).isNotBlank();
			assertThat(degraded.get("checks").get("database").get("status").asString()).isEqualTo("UP");
			JsonNode actuator = answer(client(null).get().uri("http://127.0.0.1:" + this.port + "/actuator/health"),
					HttpStatus.OK);
			assertThat(actuator.get("status").asString()).isEqualTo("DEGRADED");
		}
		finally {
			redis.start();
		}
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

	private ConfigurableApplicationContext startSecondInstance(String redisArgument) {
		return TestHttp.forgetOnClose(new SpringApplicationBuilder(MessagingApplication.class).run("--server.port=0",
				"--spring.r2dbc.url=" + this.environment.getProperty("spring.r2dbc.url"),
				"--junction.messaging.admin-key=" + ADMIN_KEY, "--junction.messaging.rate-limit.messages=4",
				redisArgument));
	}

}
