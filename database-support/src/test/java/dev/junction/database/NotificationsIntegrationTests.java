package dev.junction.database;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import io.r2dbc.postgresql.PostgresqlConnectionFactory;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * LISTEN on a real PostgreSQL: payloads arrive, a killed connection is reported and
 * replaced.
 */
class NotificationsIntegrationTests {

	private static final String LISTENER = "junction-notifications-test";

	private static EmbeddedPostgres postgres;

	private static DatabaseUrl url;

	@BeforeAll
	static void start() throws IOException {
		postgres = EmbeddedPostgres.builder().start();
		url = DatabaseUrl.parse("test", "postgresql://postgres@localhost:" + postgres.getPort() + "/postgres", null,
				null);
	}

	@AfterAll
	static void stop() throws IOException {
		postgres.close();
	}

	@Test
	void deliversPayloadsAndSignalsEveryReconnection() {
		Notifications notifications = Notifications.postgres(url.postgresConnections(LISTENER, Duration.ofSeconds(5)),
				Duration.ofSeconds(1));
		List<String> signals = new CopyOnWriteArrayList<>();
		AtomicInteger lost = new AtomicInteger();
		Disposable subscription = notifications.listen("junction_test", (ex) -> lost.incrementAndGet())
			.subscribe(signals::add);
		try {
			await().atMost(Duration.ofSeconds(10)).until(() -> signals.contains(Notifications.CONNECTED));
			execute("NOTIFY junction_test, 'first'");
			await().atMost(Duration.ofSeconds(10)).until(() -> signals.contains("first"));
			assertThat(lost).hasValue(0);

			execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = '" + LISTENER
					+ "'");
			await().atMost(Duration.ofSeconds(10))
				.until(() -> signals.stream().filter(Notifications.CONNECTED::equals).count() == 2);
			assertThat(lost.get()).isPositive();
			execute("NOTIFY junction_test, 'second'");
			await().atMost(Duration.ofSeconds(10)).until(() -> signals.contains("second"));
		}
		finally {
			subscription.dispose();
		}
	}

	@Test
	void hasNothingToListenToOnH2() {
		Notifications none = Notifications.none();
		assertThat(none.shared()).isFalse();
		assertThat(none.listen("junction_test").collectList().block(Duration.ofSeconds(5))).isEmpty();
	}

	private static void execute(String sql) {
		PostgresqlConnectionFactory factory = url.postgresConnections("junction-notifications-admin",
				Duration.ofSeconds(5));
		Mono.usingWhen(factory.create(),
				(connection) -> connection.createStatement(sql)
					.execute()
					.flatMap((result) -> result.map((row, meta) -> 1))
					.then(),
				(connection) -> connection.close())
			.block(Duration.ofSeconds(10));
	}

}
