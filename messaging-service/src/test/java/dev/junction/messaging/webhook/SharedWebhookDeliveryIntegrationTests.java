package dev.junction.messaging.webhook;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

import dev.junction.messaging.support.IntegrationTestSupport;
import dev.junction.messaging.support.ServiceCluster;
import dev.junction.messaging.support.ServiceProcess;
import dev.junction.messaging.support.TestDatabase;
import dev.junction.messaging.support.TestHttp;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;
import reactor.core.publisher.Mono;

import org.springframework.test.web.reactive.server.WebTestClient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Instances on one PostgreSQL share the webhook deliveries: each attempt is made once, by
 * whichever instance holds the delivery's lease, and the deliveries of an instance killed
 * mid-run are completed by the others once its leases run out.
 */
@EnabledIfSystemProperty(named = TestDatabase.PROPERTY, matches = "postgresql")
class SharedWebhookDeliveryIntegrationTests {

	private static final Duration PATIENCE = Duration.ofSeconds(30);

	private static ServiceCluster cluster;

	@TempDir
	Path directory;

	@BeforeAll
	static void start() {
		cluster = ServiceCluster.start(3, "--junction.messaging.webhooks.base-delay=50ms",
				"--junction.messaging.webhooks.max-delay=200ms", "--junction.messaging.webhooks.timeout=5s",
				"--junction.messaging.webhooks.lease-time=10s", "--junction.messaging.webhooks.max-attempts=3",
				"--junction.messaging.webhooks.concurrency=2");
	}

	@AfterAll
	static void stop() {
		cluster.close();
	}

	@Test
	void everyAttemptIsMadeOnceWhileTheInstancesShareTheDeliveries() {
		double[] before = deliveredByInstance();
		// Slow answers keep deliveries in flight, and every fourth first attempt fails so
		// retries are
		// shared too. Only first attempts fail: a delivery whose retries met failures
		// meant for
		// others would become a dead letter.
		AtomicInteger firstAttempts = new AtomicInteger();
		try (WebhookReceiver receiver = new WebhookReceiver()
			.answer((headers) -> ("1".equals(headers.get("x-junction-delivery-attempt"))
					&& firstAttempts.getAndIncrement() % 4 == 0) ? 503 : 200)) {
			receiver.beforeAnswering((request) -> Mono.delay(Duration.ofMillis(20)));
			UUID instance = create(cluster.admin(0), "/instances", Map.of("name", name(), "channel", "whatsapp"));
			create(cluster.admin(0), "/webhooks",
					Map.of("instanceId", instance, "url", receiver.url(), "eventTypes", List.of("message.sent")));
			UUID chat = create(cluster.admin(1), "/chats", Map.of("instanceId", instance, "remoteId", name()));
			int messages = 60;
			for (int i = 0; i < messages; i++) {
				create(cluster.admin(i % cluster.size()), "/messages", Map.of("chatId", chat, "text", "message " + i));
			}

			await().atMost(PATIENCE).untilAsserted(() -> assertThat(accepted(receiver)).hasSize(messages));
			await().during(Duration.ofMillis(500))
				.atMost(PATIENCE)
				.untilAsserted(() -> assertThat(unfinished(instance)).isZero());
			List<String> attempts = receiver.received()
				.stream()
				.map((request) -> request.headers().get("x-junction-delivery-id") + "#"
						+ request.headers().get("x-junction-delivery-attempt"))
				.toList();
			assertThat(attempts).doesNotHaveDuplicates();
			assertThat(accepted(receiver).values()).allMatch((count) -> count == 1);
			// An instance counts a delivery once its attempt is recorded, which can be a
			// moment after the database says so.
			await().atMost(PATIENCE).untilAsserted(() -> {
				double[] after = deliveredByInstance();
				double total = 0;
				for (int i = 0; i < cluster.size(); i++) {
					assertThat(after[i] - before[i]).as("deliveries made by instance %d", i).isPositive();
					total += after[i] - before[i];
				}
				assertThat(total).isEqualTo(messages);
			});
		}
	}

	@Test
	void deliveriesOfAnInstanceKilledMidRunAreCompletedByTheOthers() throws Exception {
		try (WebhookReceiver receiver = new WebhookReceiver().answer(200);
				ServiceProcess victim = ServiceProcess.start(this.directory,
						cluster.arguments("--junction.messaging.webhooks.timeout=2s",
								"--junction.messaging.webhooks.lease-time=4s",
								"--junction.messaging.webhooks.poll-interval=10m"))) {
			assertThat(victim.awaitReady(Duration.ofSeconds(90))).as(victim.output()).isTrue();
			// The receiver answers slowly, so the victim has deliveries in flight when it
			// dies.
			receiver.beforeAnswering((request) -> Mono.delay(Duration.ofMillis(1500)));
			WebTestClient onVictim = TestHttp.webTestClient(victim.port())
				.defaultHeader("x-api-key", IntegrationTestSupport.ADMIN_KEY)
				.build();
			UUID instance = create(onVictim, "/instances", Map.of("name", name(), "channel", "whatsapp"));
			create(onVictim, "/webhooks",
					Map.of("instanceId", instance, "url", receiver.url(), "eventTypes", List.of("message.sent")));
			UUID chat = create(onVictim, "/chats", Map.of("instanceId", instance, "remoteId", name()));
			int messages = 20;
			for (int i = 0; i < messages; i++) {
				create(onVictim, "/messages", Map.of("chatId", chat, "text", "message " + i));
			}
			await().atMost(PATIENCE).until(() -> receiver.received().size() >= 3);
			victim.kill();
			assertThat(unfinished(instance)).isPositive();

			await().atMost(PATIENCE).untilAsserted(() -> assertThat(unfinished(instance)).isZero());
			assertThat(accepted(receiver)).hasSize(messages);
			assertThat(statuses(instance)).containsOnlyKeys("DELIVERED");
		}
	}

	/** Accepted requests per event id. */
	private static Map<String, Long> accepted(WebhookReceiver receiver) {
		return receiver.received()
			.stream()
			.filter((request) -> request.status() == 200)
			.collect(Collectors.groupingBy((request) -> request.headers().get("x-junction-event-id"),
					Collectors.counting()));
	}

	private static double[] deliveredByInstance() {
		double[] delivered = new double[cluster.size()];
		for (int i = 0; i < cluster.size(); i++) {
			delivered[i] = cluster.bean(i, MeterRegistry.class)
				.get(WebhookMetrics.DELIVERIES)
				.tag("outcome", "delivered")
				.counter()
				.count();
		}
		return delivered;
	}

	private static long unfinished(UUID instance) throws SQLException {
		return statuses(instance).entrySet()
			.stream()
			.filter((entry) -> Set.of("PENDING", "RETRYING").contains(entry.getKey()))
			.mapToLong(Map.Entry::getValue)
			.sum();
	}

	/** Deliveries of {@code instance}'s events by status. */
	private static Map<String, Long> statuses(UUID instance) throws SQLException {
		try (Connection connection = cluster.connection();
				PreparedStatement statement = connection.prepareStatement(
						"SELECT status, COUNT(*) FROM webhook_deliveries WHERE instance_id = ? GROUP BY status")) {
			statement.setObject(1, instance);
			Map<String, Long> statuses = new HashMap<>();
			try (ResultSet rows = statement.executeQuery()) {
				while (rows.next()) {
					statuses.put(rows.getString(1), rows.getLong(2));
				}
			}
			return statuses;
		}
	}

	private static UUID create(WebTestClient client, String path, Object body) {
		return UUID.fromString(ServiceCluster.create(client, path, body).get("id").asString());
	}

	private static String name() {
		return "shared-" + UUID.randomUUID();
	}

}
