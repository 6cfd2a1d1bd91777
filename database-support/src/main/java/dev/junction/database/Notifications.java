package dev.junction.database;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

import io.r2dbc.postgresql.PostgresqlConnectionFactory;
import io.r2dbc.postgresql.api.PostgresqlConnection;
import io.r2dbc.postgresql.api.PostgresqlResult;
import io.r2dbc.spi.ValidationDepth;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.util.retry.Retry;

/**
 * PostgreSQL {@code LISTEN}, each channel on a dedicated connection outside any pool, so
 * instances sharing the database hear what the others commit. A lost connection is opened
 * again with backoff, and one that stops answering is found by a check every
 * {@code checkInterval}; {@link #CONNECTED} marks every (re)connection, after which a
 * listener catches up on what it may have missed. On H2 there is nothing to listen to:
 * one process owns the database file.
 */
public final class Notifications {

	/** Emitted once the channel is listened to, first and after every reconnection. */
	public static final String CONNECTED = "";

	private static final Logger logger = LoggerFactory.getLogger(Notifications.class);

	private final @Nullable PostgresqlConnectionFactory factory;

	private final Duration checkInterval;

	private Notifications(@Nullable PostgresqlConnectionFactory factory, Duration checkInterval) {
		this.factory = factory;
		this.checkInterval = checkInterval;
	}

	/**
	 * Notifications through connections from {@code factory}, each checked every
	 * {@code checkInterval}.
	 */
	public static Notifications postgres(PostgresqlConnectionFactory factory, Duration checkInterval) {
		return new Notifications(factory, checkInterval);
	}

	/** No notifications: the database is this process's alone (H2). */
	public static Notifications none() {
		return new Notifications(null, Duration.ZERO);
	}

	/** Whether other processes may write to the database (PostgreSQL). */
	public boolean shared() {
		return this.factory != null;
	}

	/**
	 * {@link #CONNECTED}, then the payload of every notification on {@code channel} (a
	 * lower-case identifier), reconnecting until the subscription is cancelled. Empty on
	 * H2.
	 */
	public Flux<String> listen(String channel) {
		return listen(channel, (ex) -> {
		});
	}

	/**
	 * As {@link #listen(String)}, calling {@code lost} each time the connection is lost:
	 * from then until the next {@link #CONNECTED}, notifications may be missed. One
	 * warning is logged for each such time.
	 */
	public Flux<String> listen(String channel, Consumer<Throwable> lost) {
		PostgresqlConnectionFactory factory = this.factory;
		if (factory == null) {
			return Flux.empty();
		}
		return Flux.defer(() -> {
			AtomicBoolean listening = new AtomicBoolean();
			return Flux
				.usingWhen(factory.create(), (connection) -> session(connection, channel, listening),
						PostgresqlConnection::close, (connection, ex) -> connection.close().onErrorComplete(),
						(connection) -> connection.close().onErrorComplete())
				.concatWith(Mono.error(() -> new IllegalStateException("listening connection closed")))
				.doOnError((ex) -> {
					if (listening.getAndSet(false)) {
						logger.warn("Not listening to {}: {}; reconnecting", channel, ex.toString());
					}
					lost.accept(ex);
				})
				.retryWhen(Retry.backoff(Long.MAX_VALUE, Duration.ofMillis(100))
					.maxBackoff(Duration.ofSeconds(5))
					.transientErrors(true));
		});
	}

	private Flux<String> session(PostgresqlConnection connection, String channel, AtomicBoolean listening) {
		Flux<String> checks = Flux.interval(this.checkInterval)
			.concatMap((tick) -> connection.validate(ValidationDepth.REMOTE).timeout(this.checkInterval))
			.filter((valid) -> !valid)
			.flatMap((invalid) -> Mono.error(new IllegalStateException("listening connection no longer valid")));
		return connection.createStatement("LISTEN " + channel)
			.execute()
			.flatMap(PostgresqlResult::getRowsUpdated)
			// Notifications are subscribed to before CONNECTED goes out, so the catch-up
			// it
			// starts misses nothing committed after it.
			.thenMany(
					Flux.merge(connection.getNotifications().mapNotNull((notification) -> notification.getParameter()),
							checks, Mono.fromCallable(() -> {
								listening.set(true);
								logger.info("Listening to {}", channel);
								return CONNECTED;
							})));
	}

}
