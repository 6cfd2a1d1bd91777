package dev.junction.messaging.ratelimit;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.UUID;

import dev.junction.messaging.MessagingApplication;
import dev.junction.messaging.support.IntegrationTestSupport;
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
 * test is skipped where none is installed): two service instances draw from one bucket.
 */
@EnabledIf("redisInstalled")
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "junction.messaging.admin-key=" + IntegrationTestSupport.ADMIN_KEY,
				"junction.messaging.rate-limit.messages=4", "logging.level.io.zonky.test=warn" })
@Import(TickingClockConfiguration.class)
class RedisRateLimitIntegrationTests extends IntegrationTestSupport {

	private static Process redis;

	@Autowired
	private Environment environment;

	private static int redisPort;

	static boolean redisInstalled() {
		return List.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
			.stream()
			.anyMatch((dir) -> new File(dir, "redis-server").canExecute());
	}

	@DynamicPropertySource
	static void redis(DynamicPropertyRegistry registry) {
		startRedis();
		registry.add("junction.redis.url", () -> "redis://127.0.0.1:" + redisPort);
	}

	@AfterAll
	static void stopRedis() {
		if (redis != null) {
			redis.destroy();
		}
	}

	@Test
	void serviceInstancesShareOneBucketPerKey() {
		String key = createKey(List.of("read"), List.of());
		WebTestClient first = client(key);
		UUID chat = createChat(createInstance());
		for (int remaining = 3; remaining >= 1; remaining--) {
			first.get().uri("/chats/{id}/messages", chat).exchange().expectStatus().isOk()
				.expectHeader().valueEquals("X-RateLimit-Remaining", Integer.toString(remaining));
		}
		try (ConfigurableApplicationContext secondInstance = startSecondInstance()) {
			int port = ((WebServerApplicationContext) secondInstance).getWebServer().getPort();
			WebTestClient second = TestHttp.webTestClient(port).defaultHeader("x-api-key", key).build();
			second.get().uri("/chats/{id}/messages", chat).exchange().expectStatus().isOk()
				.expectHeader().valueEquals("X-RateLimit-Remaining", "0");
			second.get().uri("/messages?chatId={id}", chat).exchange().expectStatus().isEqualTo(HttpStatus.TOO_MANY_REQUESTS);
		}
		first.get().uri("/messages?chatId={id}", chat).exchange().expectStatus().isEqualTo(HttpStatus.TOO_MANY_REQUESTS)
			.expectHeader().exists("Retry-After");
	}

	@Test
	void failsOpenAndReportsRedisDownWhenItGoesAway() {
		JsonNode health = get(client(null), "/health", HttpStatus.OK);
		assertThat(health.get("checks").get("redis").get("status").asString()).isEqualTo("UP");
		redis.destroy();
		await().atMost(Duration.ofSeconds(20)).until(() -> !redis.isAlive());
		try {
			String key = createKey(List.of("read"), List.of());
			client(key).get().uri("/messages").exchange().expectStatus().isOk()
				.expectHeader().doesNotExist("X-RateLimit-Remaining");
			JsonNode down = get(client(null), "/health", HttpStatus.SERVICE_UNAVAILABLE);
			assertThat(down.get("checks").get("redis").get("status").asString()).isEqualTo("DOWN");
			assertThat(down.get("checks").get("database").get("status").asString()).isEqualTo("UP");
		}
		finally {
			startRedis();
			await().atMost(Duration.ofSeconds(30))
				.untilAsserted(() -> get(client(null), "/health", HttpStatus.OK));
		}
	}

	private ConfigurableApplicationContext startSecondInstance() {
		return TestHttp.forgetOnClose(new SpringApplicationBuilder(MessagingApplication.class).run("--server.port=0",
				"--junction.messaging.db.url=" + this.environment.getProperty("junction.messaging.db.url"),
				"--junction.messaging.admin-key=" + ADMIN_KEY, "--junction.messaging.rate-limit.messages=4",
				"--junction.redis.url=redis://127.0.0.1:" + redisPort));
	}

	private static synchronized void startRedis() {
		try {
			if (redisPort == 0) {
				try (ServerSocket socket = new ServerSocket(0)) {
					redisPort = socket.getLocalPort();
				}
			}
			redis = new ProcessBuilder("redis-server", "--port", Integer.toString(redisPort), "--bind", "127.0.0.1",
					"--save", "", "--appendonly", "no")
				.redirectErrorStream(true)
				.redirectOutput(ProcessBuilder.Redirect.DISCARD)
				.start();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		await().atMost(Duration.ofSeconds(20)).ignoreExceptions().until(() -> {
			try (Socket socket = new Socket()) {
				socket.connect(new InetSocketAddress("127.0.0.1", redisPort), 200);
				return true;
			}
		});
	}

}
