package dev.junction.gateway.resilience;

import java.time.Duration;

import dev.junction.gateway.error.GatewayException;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig.SlidingWindowSynchronizationStrategy;
import io.github.resilience4j.core.IntervalBiFunction;
import io.github.resilience4j.retry.RetryConfig;

/**
 * What every retry and circuit breaker of the gateway keeps whatever its configuration
 * says: only transient upstream failures (5xx, 429, timeouts, connection failures) are
 * retried and count against a provider; a retry waits at least the upstream's
 * {@code Retry-After}; a breaker records outcomes in the lock-free sliding window, since
 * calls end on event loops (the synchronized window takes a lock that two loops finishing
 * calls contend for).
 */
final class GatewayRules {

	private GatewayRules() {
	}

	@SuppressWarnings("unchecked")
	static void retry(RetryConfig.Builder<?> builder) {
		retryOnTransientFailures((RetryConfig.Builder<Object>) builder);
	}

	private static void retryOnTransientFailures(RetryConfig.Builder<Object> builder) {
		IntervalBiFunction<Object> backoff = builder.build().getIntervalBiFunction();
		builder.retryOnException(Failures::retryable).intervalBiFunction((attempt, outcome) -> {
			long wait = backoff.apply(attempt, outcome);
			if (outcome.isLeft() && outcome.getLeft() instanceof GatewayException failure) {
				Duration retryAfter = failure.retryAfter();
				if (retryAfter != null) {
					return Math.max(wait, retryAfter.toMillis());
				}
			}
			return wait;
		});
	}

	static void circuitBreaker(CircuitBreakerConfig.Builder builder) {
		builder.recordException(Failures::retryable)
			.slidingWindowSynchronizationStrategy(SlidingWindowSynchronizationStrategy.LOCK_FREE);
	}

}
