package dev.junction.gateway.warmup;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Requests the gateway sends itself after it starts and before it reports ready, so that
 * the JIT compiles the request path before clients' requests arrive. They go through the
 * server, every stage and the provider like any other request (and count in its metrics,
 * limits and spend), to a route that should cost nothing: a local or emulated model, not
 * a paid one.
 *
 * @param model the model they ask for, an alias or {@code provider/model}; unset: no
 * warm-up
 * @param requests how many; every fourth one is streamed
 * @param concurrency how many at once
 * @param maxDuration the longest the warm-up may take; what is still running then is
 * cancelled and the gateway reports ready
 * @param key the bearer key they carry, where the gateway requires one
 * @param thenExit whether the application exits once it has started and warmed up (or
 * just started, without a model): the training run in which {@code bin/gateway} records
 * the start-up data that later starts map
 * @param untilCompiled whether, once the requests are answered, the warm-up goes on one
 * request at a time until the JIT has gone quiet (within the maximum duration)
 */
@ConfigurationProperties(WarmUpProperties.PREFIX)
public record WarmUpProperties(@Nullable String model, @DefaultValue("10000") int requests,
		@DefaultValue("8") int concurrency, @DefaultValue("30s") Duration maxDuration, @Nullable String key,
		@DefaultValue("false") boolean thenExit, @DefaultValue("true") boolean untilCompiled) {

	/** Prefix of these properties. */
	public static final String PREFIX = "junction.gateway.warm-up";

	public WarmUpProperties {
		if (requests < 0 || concurrency < 1 || maxDuration.isNegative() || maxDuration.isZero()) {
			throw new IllegalArgumentException(PREFIX
					+ ": requests must not be negative, concurrency must be at least 1 and max-duration positive");
		}
	}

}
