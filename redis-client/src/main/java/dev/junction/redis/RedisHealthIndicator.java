package dev.junction.redis;

import java.time.Duration;
import java.util.concurrent.CompletionException;

import reactor.core.publisher.Mono;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.ReactiveHealthIndicator;
import org.springframework.boot.health.contributor.Status;

/**
 * Redis answers PING. When it does not, the application is {@link #DEGRADED}, not down:
 * what Redis shares (rate limits, cached answers) falls back as configured, and
 * everything else works.
 */
class RedisHealthIndicator implements ReactiveHealthIndicator {

	/** Serving, with Redis unreachable. */
	static final Status DEGRADED = new Status("DEGRADED", "Redis is unreachable");

	private static final Duration TIMEOUT = Duration.ofSeconds(3);

	private final RedisConnector connector;

	RedisHealthIndicator(RedisConnector connector) {
		this.connector = connector;
	}

	@Override
	public Mono<Health> health() {
		return Mono.fromFuture(() -> this.connector.call((connection) -> connection.async().ping()))
			.timeout(TIMEOUT)
			.map((pong) -> Health.up().build())
			.onErrorResume((ex) -> Mono.just(Health.status(DEGRADED).withDetail("error", describe(ex)).build()));
	}

	private static String describe(Throwable ex) {
		Throwable cause = (ex instanceof CompletionException && ex.getCause() != null) ? ex.getCause() : ex;
		String message = cause.getMessage();
		return (message != null) ? message : "no answer";
	}

}
