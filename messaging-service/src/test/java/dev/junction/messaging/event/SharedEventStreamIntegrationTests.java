package dev.junction.messaging.event;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

import dev.junction.messaging.db.DatabaseConnectionDetails;
import dev.junction.messaging.support.IntegrationTestSupport;
import dev.junction.messaging.support.ServiceCluster;
import dev.junction.messaging.support.SseClient;
import dev.junction.messaging.support.TestDatabase;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import tools.jackson.databind.JsonNode;

import org.springframework.test.web.reactive.server.WebTestClient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Three instances on one PostgreSQL: an event stream on any of them carries every event,
 * whichever instance wrote it, in the order of the change log and without gaps.
 */
@EnabledIfSystemProperty(named = TestDatabase.PROPERTY, matches = "postgresql")
class SharedEventStreamIntegrationTests {

	private static ServiceCluster cluster;

	@BeforeAll
	static void start() {
		cluster = ServiceCluster.start(3);
	}

	@AfterAll
	static void stop() {
		cluster.close();
	}

	@Test
	void streamOnOneInstanceCarriesEventsWrittenThroughTheOthersInOrder() throws Exception {
		UUID instance = create(cluster.admin(0), "/instances", Map.of("name", name(), "channel", "whatsapp"));
		try (SseClient stream = openStream(instance)) {
			UUID chat = create(cluster.admin(1), "/chats", Map.of("instanceId", instance, "remoteId", name()));
			CompletableFuture<Void> throughB = CompletableFuture.runAsync(() -> sendMessages(1, chat, 25));
			CompletableFuture<Void> throughC = CompletableFuture.runAsync(() -> sendMessages(2, chat, 25));
			CompletableFuture.allOf(throughB, throughC).get();

			List<String> logged = changeLog(instance);
			assertThat(logged).hasSize(51);
			assertThat(stream.awaitLine(("id:" + logged.get(logged.size() - 1))::equals, Duration.ofSeconds(10)))
				.isTrue();
			assertThat(streamedIds(stream)).isEqualTo(logged);
		}
	}

	@Test
	void listenerThatLosesItsConnectionResumesFromTheLastEventItSaw() throws Exception {
		UUID instance = create(cluster.admin(0), "/instances", Map.of("name", name(), "channel", "whatsapp"));
		UUID chat = create(cluster.admin(0), "/chats", Map.of("instanceId", instance, "remoteId", name()));
		try (SseClient stream = openStream(instance)) {
			sendMessages(1, chat, 5);
			// Every instance in this JVM listens, those of the other tests included.
			int listening = listeners();
			assertThat(listening).isGreaterThanOrEqualTo(cluster.size());
			assertThat(terminateListeners()).isEqualTo(listening);
			sendMessages(2, chat, 20);
			await().atMost(Duration.ofSeconds(10)).until(() -> listeners() == listening);
			sendMessages(1, chat, 5);

			List<String> logged = changeLog(instance);
			assertThat(stream.awaitLine(("id:" + logged.get(logged.size() - 1))::equals, Duration.ofSeconds(10)))
				.isTrue();
			assertThat(streamedIds(stream)).isEqualTo(logged.subList(logged.size() - 30, logged.size()));
		}
	}

	private static SseClient openStream(UUID instance) throws Exception {
		SseClient stream = SseClient.open(cluster.port(0), "/events/stream?instanceId=" + instance,
				IntegrationTestSupport.ADMIN_KEY);
		assertThat(stream.status()).isEqualTo(200);
		assertThat(stream.awaitLine(":connected"::equals, Duration.ofSeconds(5))).isTrue();
		return stream;
	}

	private static void sendMessages(int through, UUID chat, int count) {
		WebTestClient client = cluster.admin(through);
		for (int i = 0; i < count; i++) {
			create(client, "/messages", Map.of("chatId", chat, "text", "through " + through + ": " + i));
		}
	}

	/**
	 * Ids of the events of {@code instance} after its creation, oldest first, as the list
	 * endpoint has them.
	 */
	private static List<String> changeLog(UUID instance) {
		JsonNode page = cluster.admin(0)
			.get()
			.uri("/events?instanceId={id}&limit=100", instance)
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody(JsonNode.class)
			.returnResult()
			.getResponseBody();
		List<String> ids = new ArrayList<>();
		for (JsonNode event : page.get("items")) {
			if (!event.get("type").asString().equals(EventTypes.INSTANCE_CREATED)) {
				ids.add(0, event.get("id").asString());
			}
		}
		return ids;
	}

	private static List<String> streamedIds(SseClient stream) {
		return stream.lines()
			.stream()
			.filter((line) -> line.startsWith("id:"))
			.map((line) -> line.substring(3))
			.toList();
	}

	private static UUID create(WebTestClient client, String path, Object body) {
		return UUID.fromString(ServiceCluster.create(client, path, body).get("id").asString());
	}

	private static int terminateListeners() throws SQLException {
		return count("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = '"
				+ DatabaseConnectionDetails.LISTENER_APPLICATION_NAME + "'");
	}

	private static int listeners() throws SQLException {
		return count("SELECT pid FROM pg_stat_activity WHERE application_name = '"
				+ DatabaseConnectionDetails.LISTENER_APPLICATION_NAME + "'");
	}

	private static int count(String sql) throws SQLException {
		try (Connection connection = TestDatabase.sharedPostgres().getPostgresDatabase().getConnection();
				Statement statement = connection.createStatement();
				ResultSet rows = statement.executeQuery(sql)) {
			int count = 0;
			while (rows.next()) {
				count++;
			}
			return count;
		}
	}

	private static String name() {
		return "shared-" + UUID.randomUUID();
	}

}
