package dev.junction.gateway.resilience;

import java.time.Duration;

import dev.junction.gateway.error.DeniedException;
import dev.junction.gateway.pipeline.Attempt;
import dev.junction.gateway.pipeline.ChatExchange;
import dev.junction.gateway.pipeline.ChatStage;
import dev.junction.gateway.provider.ChatOutput;
import dev.junction.gateway.provider.KeyPool;
import io.github.resilience4j.circuitbreaker.CallNotPermittedException;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.github.resilience4j.reactor.circuitbreaker.operator.CircuitBreakerOperator;
import reactor.core.publisher.Flux;

/**
 * Guards each provider key with a Resilience4j circuit breaker ({@code <provider>:<key>},
 * configured by the provider's instance or named config, or the default): it opens on the
 * failure rate or the slow-call rate, refuses calls while open (which sends the request
 * on to the next target) and half-opens to probe. A time limiter bounds a complete call,
 * and a stream up to its first chunk. Only transient upstream failures count against a
 * provider ({@link GatewayRules}). A call with the caller's own key has no breaker: how
 * it goes says nothing about the provider's keys, and must not shut other callers out.
 */
public final class CircuitBreakerStage implements ChatStage {

	private final CircuitBreakerRegistry breakers;

	public CircuitBreakerStage(CircuitBreakerRegistry breakers) {
		this.breakers = breakers;
	}

	@Override
	public <T extends ChatOutput> Flux<T> apply(ChatExchange exchange, Attempt attempt, Next<T> next) {
		if (exchange.callerKey() != null) {
			return next.apply(exchange, attempt);
		}
		return Flux.defer(() -> {
			CircuitBreaker breaker = breaker(attempt);
			return next.apply(exchange, attempt)
				.transformDeferred(CircuitBreakerOperator.of(breaker))
				.onErrorMap(CallNotPermittedException.class, (ex) -> open(breaker));
		});
	}

	/**
	 * The breaker of the attempt's key: an instance configured under its name
	 * ({@code instances.[<provider>:key0]}), or one made from the provider's instance
	 * ({@code instances.<provider>}), its shared config, or the default.
	 */
	private CircuitBreaker breaker(Attempt attempt) {
		String provider = attempt.routed().provider();
		KeyPool.PooledKey key = attempt.key();
		String name = provider + ":" + ((key != null) ? key.id() : "nokey");
		return this.breakers.circuitBreaker(name,
				() -> this.breakers.find(provider)
					.map(CircuitBreaker::getCircuitBreakerConfig)
					.or(() -> this.breakers.getConfiguration(provider))
					.orElse(this.breakers.getDefaultConfig()));
	}

	private static DeniedException open(CircuitBreaker breaker) {
		Duration wait = Duration
			.ofMillis(breaker.getCircuitBreakerConfig().getWaitIntervalFunctionInOpenState().apply(1));
		return DeniedException.unavailable("circuit_breaker",
				"The circuit breaker '" + breaker.getName() + "' is open: the provider is failing.", wait);
	}

}
