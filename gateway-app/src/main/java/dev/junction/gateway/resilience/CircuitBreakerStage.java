package dev.junction.gateway.resilience;

import java.time.Duration;

import dev.junction.gateway.error.DeniedException;
import dev.junction.gateway.pipeline.ChatExchange;
import dev.junction.gateway.pipeline.ChatStage;
import dev.junction.gateway.provider.ChatChunk;
import dev.junction.gateway.provider.ChatResult;
import dev.junction.gateway.provider.KeyPool;
import io.github.resilience4j.circuitbreaker.CallNotPermittedException;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.github.resilience4j.reactor.circuitbreaker.operator.CircuitBreakerOperator;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Guards each provider key with a Resilience4j circuit breaker ({@code <provider>:<key>},
 * configured by the provider's instance or named config, or the default): it opens on the
 * failure rate or the slow-call rate, refuses calls while open (which sends the request on to
 * the next target) and half-opens to probe. A time limiter bounds a complete call, and a
 * stream up to its first chunk. Only transient upstream failures count against a provider
 * ({@link GatewayRules}).
 */
public final class CircuitBreakerStage implements ChatStage {

	private final CircuitBreakerRegistry breakers;

	public CircuitBreakerStage(CircuitBreakerRegistry breakers) {
		this.breakers = breakers;
	}

	@Override
	public Mono<ChatResult> complete(ChatExchange exchange, Next next) {
		return Mono.defer(() -> {
			CircuitBreaker breaker = breaker(exchange);
			return next.complete(exchange)
				.transformDeferred(CircuitBreakerOperator.of(breaker))
				.onErrorMap(CallNotPermittedException.class, (ex) -> open(breaker));
		});
	}

	@Override
	public Flux<ChatChunk> stream(ChatExchange exchange, Next next) {
		return Flux.defer(() -> {
			CircuitBreaker breaker = breaker(exchange);
			return next.stream(exchange)
				.transformDeferred(CircuitBreakerOperator.of(breaker))
				.onErrorMap(CallNotPermittedException.class, (ex) -> open(breaker));
		});
	}

	/**
	 * The breaker of the exchange's key: an instance configured under its name
	 * ({@code instances.[<provider>:key0]}), or one made from the provider's instance
	 * ({@code instances.<provider>}), its shared config, or the default.
	 */
	private CircuitBreaker breaker(ChatExchange exchange) {
		String provider = exchange.target().provider();
		KeyPool.PooledKey key = exchange.key();
		String name = provider + ":" + ((key != null) ? key.id() : "nokey");
		return this.breakers.find(name)
			.orElseGet(() -> this.breakers.circuitBreaker(name,
					this.breakers.find(provider)
						.map(CircuitBreaker::getCircuitBreakerConfig)
						.or(() -> this.breakers.getConfiguration(provider))
						.orElse(this.breakers.getDefaultConfig())));
	}

	private static DeniedException open(CircuitBreaker breaker) {
		Duration wait = Duration.ofMillis(breaker.getCircuitBreakerConfig().getWaitIntervalFunctionInOpenState().apply(1));
		return DeniedException.unavailable("circuit_breaker",
				"The circuit breaker '" + breaker.getName() + "' is open: the provider is failing.", wait);
	}

}
