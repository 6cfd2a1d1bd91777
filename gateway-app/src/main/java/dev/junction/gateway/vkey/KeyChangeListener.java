package dev.junction.gateway.vkey;

import java.time.Duration;

import io.r2dbc.postgresql.PostgresqlConnectionFactory;
import io.r2dbc.postgresql.api.PostgresqlConnection;
import io.r2dbc.postgresql.api.PostgresqlResult;
import io.r2dbc.spi.ValidationDepth;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.util.retry.Retry;

import org.springframework.context.SmartLifecycle;

/**
 * On PostgreSQL, listens on {@link KeyStore#CHANNEL} on a connection of its own and drops
 * every key another instance (or this one) writes from the {@link KeyCache}. The cache is
 * trusted from the moment the channel is listened to, and distrusted (flushed, every lookup
 * read from the database) from the moment the connection is lost until it is listened to
 * again, so no change goes unheard. A connection that stops answering is found by a check
 * every {@link #CHECK_INTERVAL}. Nothing to do on H2: this instance makes every change.
 */
public final class KeyChangeListener implements SmartLifecycle {

	/** The {@code application_name} of the listening connection. */
	public static final String APPLICATION_NAME = "junction-gateway-listener";

	private static final Logger logger = LoggerFactory.getLogger(KeyChangeListener.class);

	private static final Duration CHECK_INTERVAL = Duration.ofSeconds(5);

	private final @Nullable PostgresqlConnectionFactory factory;

	private final KeyCache cache;

	private volatile @Nullable Disposable subscription;

	/**
	 * @param factory connections to the key database, null on H2
	 * @param cache the cache to keep up to date
	 */
	public KeyChangeListener(@Nullable PostgresqlConnectionFactory factory, KeyCache cache) {
		this.factory = factory;
		this.cache = cache;
	}

	@Override
	public void start() {
		PostgresqlConnectionFactory factory = this.factory;
		if (factory == null) {
			return;
		}
		this.subscription = Flux.usingWhen(factory.create(), this::listen, PostgresqlConnection::close,
				(connection, ex) -> connection.close().onErrorComplete(), (connection) -> connection.close().onErrorComplete())
			.concatWith(Mono.error(() -> new IllegalStateException("listening connection closed")))
			.doOnError((ex) -> {
				if (this.cache.trusted()) {
					logger.warn("Not listening to virtual key changes ({}): every key is read from the database "
							+ "until listening again", ex.toString());
				}
				this.cache.distrust();
			})
			.retryWhen(Retry.backoff(Long.MAX_VALUE, Duration.ofMillis(100))
				.maxBackoff(Duration.ofSeconds(5))
				.transientErrors(true))
			.subscribe();
	}

	private Flux<String> listen(PostgresqlConnection connection) {
		Flux<String> checks = Flux.interval(CHECK_INTERVAL)
			.concatMap((tick) -> connection.validate(ValidationDepth.REMOTE).timeout(CHECK_INTERVAL))
			.filter((valid) -> !valid)
			.flatMap((invalid) -> Mono.error(new IllegalStateException("listening connection no longer valid")));
		// Notifications are subscribed to before the cache is trusted, so none is missed.
		return connection.createStatement("LISTEN " + KeyStore.CHANNEL)
			.execute()
			.flatMap(PostgresqlResult::getRowsUpdated)
			.thenMany(Flux.merge(connection.getNotifications()
				.mapNotNull((notification) -> notification.getParameter())
				.doOnNext(this.cache::invalidate), checks, Mono.fromRunnable(this::trust)));
	}

	private void trust() {
		this.cache.trust();
		logger.info("Listening to virtual key changes");
	}

	@Override
	public void stop() {
		Disposable current = this.subscription;
		if (current != null) {
			current.dispose();
		}
		this.subscription = null;
	}

	@Override
	public boolean isRunning() {
		return this.subscription != null;
	}

	/** Starts before the web server, stops after it. */
	@Override
	public int getPhase() {
		return SmartLifecycle.DEFAULT_PHASE - 2048;
	}

}
