package dev.junction.messaging.db;

import java.time.Duration;

import io.r2dbc.postgresql.PostgresqlConnectionFactory;
import io.r2dbc.postgresql.api.PostgresqlConnection;
import io.r2dbc.postgresql.api.PostgresqlResult;
import io.r2dbc.spi.ValidationDepth;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.util.retry.Retry;

/**
 * PostgreSQL {@code LISTEN}, each channel on a dedicated connection outside the pool, so
 * instances sharing the database hear what the others commit. A lost connection is opened
 * again with backoff; {@link #CONNECTED} marks every (re)connection, after which a listener
 * catches up from the database on what it may have missed. On H2 there is nothing to listen
 * to: one instance owns the database file.
 */
public final class Notifications {

	/** Emitted once the channel is listened to, first and after every reconnection. */
	public static final String CONNECTED = "";

	/** The {@code application_name} of listening connections. */
	public static final String APPLICATION_NAME = "junction-messaging-listener";

	private static final Logger logger = LoggerFactory.getLogger(Notifications.class);

	/** How often an idle listening connection is checked, so a half-open one is replaced. */
	private static final Duration CHECK_INTERVAL = Duration.ofSeconds(15);

	private final PostgresqlConnectionFactory factory;

	private Notifications(PostgresqlConnectionFactory factory) {
		this.factory = factory;
	}

	static Notifications postgres(PostgresqlConnectionFactory factory) {
		return new Notifications(factory);
	}

	/** No notifications: the database is this instance's alone (H2). */
	public static Notifications none() {
		return new Notifications(null);
	}

	/** Whether other instances may write to the database (PostgreSQL). */
	public boolean shared() {
		return this.factory != null;
	}

	/**
	 * {@link #CONNECTED}, then the payload of every notification on {@code channel} (a
	 * lower-case identifier), reconnecting until the subscription is cancelled. Empty on H2.
	 */
	public Flux<String> listen(String channel) {
		if (this.factory == null) {
			return Flux.empty();
		}
		return Flux.usingWhen(this.factory.create(), (connection) -> session(connection, channel),
				PostgresqlConnection::close, (connection, ex) -> connection.close().onErrorComplete(),
				(connection) -> connection.close().onErrorComplete())
			.concatWith(Mono.error(() -> new IllegalStateException("listening connection closed")))
			.doOnError((ex) -> logger.warn("Not listening to {}: {}; reconnecting", channel, ex.toString()))
			.retryWhen(Retry.backoff(Long.MAX_VALUE, Duration.ofMillis(100))
				.maxBackoff(Duration.ofSeconds(5))
				.transientErrors(true));
	}

	private Flux<String> session(PostgresqlConnection connection, String channel) {
		Flux<String> checks = Flux.interval(CHECK_INTERVAL)
			.concatMap((tick) -> connection.validate(ValidationDepth.REMOTE).timeout(CHECK_INTERVAL))
			.filter((valid) -> !valid)
			.flatMap((invalid) -> Mono.error(new IllegalStateException("listening connection no longer valid")));
		return connection.createStatement("LISTEN " + channel)
			.execute()
			.flatMap(PostgresqlResult::getRowsUpdated)
			// Notifications are subscribed to before CONNECTED goes out, so the catch-up it
			// starts misses nothing committed after it.
			.thenMany(Flux.merge(
					connection.getNotifications().map((notification) -> String.valueOf(notification.getParameter())),
					checks, Mono.just(CONNECTED)));
	}

}
