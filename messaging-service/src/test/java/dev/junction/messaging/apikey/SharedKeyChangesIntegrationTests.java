package dev.junction.messaging.apikey;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import dev.junction.messaging.support.ServiceCluster;
import dev.junction.messaging.support.SseClient;
import dev.junction.messaging.support.TestDatabase;
import dev.junction.messaging.support.TestHttp;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Three instances on one PostgreSQL: a key revoked on one is refused by the others within
 * a second, long before their key caches expire, and its streams on them end.
 */
@EnabledIfSystemProperty(named = TestDatabase.PROPERTY, matches = "postgresql")
class SharedKeyChangesIntegrationTests {

	private static ServiceCluster cluster;

	@BeforeAll
	static void start() {
		cluster = ServiceCluster.start(3, "--junction.messaging.api-key-cache-ttl=10m");
	}

	@AfterAll
	static void stop() {
		cluster.close();
	}

	@Test
	void keyRevokedOnOneInstanceIsRefusedByTheOthersAtOnce() throws Exception {
		JsonNode issued = ServiceCluster.create(cluster.admin(0), "/api-keys",
				Map.of("name", "shared-" + UUID.randomUUID(), "scopes", List.of("read")));
		String key = issued.get("key").asString();
		for (int i = 0; i < cluster.size(); i++) {
			status(i, key, 200);
		}
		try (SseClient stream = SseClient.open(cluster.port(2), "/events/stream", key)) {
			assertThat(stream.awaitLine(":connected"::equals, Duration.ofSeconds(5))).isTrue();
			cluster.admin(0)
				.delete()
				.uri("/api-keys/{id}", issued.get("id").asString())
				.exchange()
				.expectStatus()
				.isNoContent()
				.expectBody()
				.isEmpty();
			await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(20)).untilAsserted(() -> {
				status(1, key, 401);
				status(2, key, 401);
			});
			assertThat(stream.awaitEnd(Duration.ofSeconds(5))).isTrue();
			assertThat(stream.lines()).contains(":closed: API key revoked");
		}
	}

	@Test
	void aKeysRateLimitIsOneBudgetOverEveryInstance() {
		assumeTrue(ServiceCluster.sharedRedis(), "redis-server is not installed (.ci/run installs it)");
		String key = ServiceCluster
			.create(cluster.admin(0), "/api-keys",
					Map.of("name", "budget-" + UUID.randomUUID(), "scopes", List.of("read")))
			.get("key")
			.asString();
		long[] remaining = new long[cluster.size()];
		for (int i = 0; i < cluster.size(); i++) {
			remaining[i] = Long.parseLong(TestHttp.webTestClient(cluster.port(i))
				.defaultHeader("x-api-key", key)
				.build()
				.get()
				.uri("/instances")
				.exchange()
				.expectStatus()
				.isOk()
				.returnResult(Void.class)
				.getResponseHeaders()
				.getFirst("X-RateLimit-Remaining"));
		}
		// Ten years' budget refills a request every five minutes: three calls in a row
		// lose two, however slowly they run.
		assertThat(remaining[2]).isLessThan(remaining[0]);
	}

	private static void status(int instance, String key, int expected) {
		assertThat(TestHttp.webTestClient(cluster.port(instance))
			.defaultHeader("x-api-key", key)
			.build()
			.get()
			.uri("/instances")
			.exchange()
			.returnResult(Void.class)
			.getStatus()
			.value()).isEqualTo(expected);
	}

}
