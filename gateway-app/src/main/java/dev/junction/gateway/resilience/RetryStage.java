package dev.junction.gateway.resilience;

import dev.junction.gateway.pipeline.Attempt;
import dev.junction.gateway.pipeline.ChatExchange;
import dev.junction.gateway.pipeline.ChatStage;
import dev.junction.gateway.provider.ChatOutput;
import io.github.resilience4j.reactor.retry.RetryOperator;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryRegistry;
import reactor.core.publisher.Flux;

/**
 * Retries a target on transient upstream failures (connection errors, timeouts, 429, 5xx)
 * with the Resilience4j retry named after the provider: the instance configured under
 * {@code instances.<provider>}, or one made from {@code configs.<provider>} or the
 * default. Whichever it is, {@link GatewayRules} decide what is retried and that the
 * upstream's Retry-After is waited out. A stream is retried only before its first chunk.
 */
public final class RetryStage implements ChatStage {

	private final RetryRegistry registry;

	public RetryStage(RetryRegistry registry) {
		this.registry = registry;
	}

	@Override
	public <T extends ChatOutput> Flux<T> apply(ChatExchange exchange, Attempt attempt, Next<T> next) {
		Flux<T> call = Flux.defer(() -> next.apply(exchange, attempt));
		return (next.mode().streaming() ? FirstChunkGuard.mark(call) : call)
			.transformDeferred(RetryOperator.of(retry(attempt.routed().provider())));
	}

	private Retry retry(String provider) {
		return this.registry.retry(provider,
				() -> this.registry.getConfiguration(provider).orElse(this.registry.getDefaultConfig()));
	}

}
