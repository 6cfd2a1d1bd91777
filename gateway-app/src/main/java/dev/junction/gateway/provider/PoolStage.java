package dev.junction.gateway.provider;

import dev.junction.gateway.pipeline.ChatExchange;
import dev.junction.gateway.pipeline.ChatStage;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Takes a permit from the target provider's limiter (waiting in its queue if need be), then
 * picks a key by weight among the usable ones, and reports upstream failures back to the key
 * pool so refused keys leave the rotation and rate-limited ones rest. A stream holds its
 * permit until it ends.
 */
public final class PoolStage implements ChatStage {

	private final ProviderRegistry providers;

	public PoolStage(ProviderRegistry providers) {
		this.providers = providers;
	}

	@Override
	public Mono<ChatResult> complete(ChatExchange exchange, Next next) {
		return Mono.defer(() -> {
			ProviderRegistry.Entry entry = this.providers.get(exchange.target().provider());
			return Mono.usingWhen(entry.limiter().acquire(), (permit) -> {
				KeyPool.PooledKey key = entry.keys().pick(exchange.target().model());
				exchange.key(key);
				return next.complete(exchange).doOnError((error) -> report(entry, key, error));
			}, ProviderLimiter.Permit::releaseLater, (permit, error) -> permit.releaseLater(),
					ProviderLimiter.Permit::releaseLater);
		});
	}

	@Override
	public Flux<ChatChunk> stream(ChatExchange exchange, Next next) {
		return Flux.defer(() -> {
			ProviderRegistry.Entry entry = this.providers.get(exchange.target().provider());
			return Flux.usingWhen(entry.limiter().acquire(), (permit) -> {
				KeyPool.PooledKey key = entry.keys().pick(exchange.target().model());
				exchange.key(key);
				return next.stream(exchange).doOnError((error) -> report(entry, key, error));
			}, ProviderLimiter.Permit::releaseLater, (permit, error) -> permit.releaseLater(),
					ProviderLimiter.Permit::releaseLater);
		});
	}

	private static void report(ProviderRegistry.Entry entry, KeyPool.PooledKey key, Throwable error) {
		if (key != null) {
			entry.keys().report(key, error);
		}
	}

}
