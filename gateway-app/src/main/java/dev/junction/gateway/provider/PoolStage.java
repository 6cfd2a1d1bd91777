package dev.junction.gateway.provider;

import java.util.concurrent.atomic.AtomicBoolean;

import dev.junction.gateway.pipeline.ChatExchange;
import dev.junction.gateway.pipeline.ChatStage;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Takes a permit from the target provider's limiter (waiting in its queue if need be), then
 * picks a key (see {@link KeyPool}) and tells the pool how the call went, so refused keys
 * leave the rotation, probes bring them back and rate-limited ones rest. A call whose key the
 * upstream refuses (401, 403) is sent again with another usable key, so a refused key or a
 * failed probe costs the client nothing while another key serves. A stream holds its permit
 * until it ends.
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
			return Mono.usingWhen(entry.limiter().acquire(), (permit) -> complete(exchange, next, entry.keys()),
					ProviderLimiter.Permit::releaseLater, (permit, error) -> permit.releaseLater(),
					ProviderLimiter.Permit::releaseLater);
		});
	}

	@Override
	public Flux<ChatChunk> stream(ChatExchange exchange, Next next) {
		return Flux.defer(() -> {
			ProviderRegistry.Entry entry = this.providers.get(exchange.target().provider());
			return Flux.usingWhen(entry.limiter().acquire(), (permit) -> stream(exchange, next, entry.keys()),
					ProviderLimiter.Permit::releaseLater, (permit, error) -> permit.releaseLater(),
					ProviderLimiter.Permit::releaseLater);
		});
	}

	private Mono<ChatResult> complete(ChatExchange exchange, Next next, KeyPool keys) {
		return Mono.defer(() -> {
			KeyPool.Pick pick = pick(exchange, keys);
			if (pick == null) {
				return next.complete(exchange);
			}
			return next.complete(exchange)
				.doOnSuccess((result) -> keys.succeeded(pick))
				.doOnError((error) -> keys.failed(pick, error))
				.doFinally((signal) -> keys.finished(pick))
				.onErrorResume((error) -> anotherKey(keys, exchange, error), (error) -> complete(exchange, next, keys));
		});
	}

	private Flux<ChatChunk> stream(ChatExchange exchange, Next next, KeyPool keys) {
		return Flux.defer(() -> {
			KeyPool.Pick pick = pick(exchange, keys);
			if (pick == null) {
				return next.stream(exchange);
			}
			AtomicBoolean accepted = new AtomicBoolean();
			return next.stream(exchange).doOnNext((chunk) -> {
				if (accepted.compareAndSet(false, true)) {
					keys.succeeded(pick);
				}
			})
				.doOnError((error) -> keys.failed(pick, error))
				.doFinally((signal) -> keys.finished(pick))
				.onErrorResume((error) -> !accepted.get() && anotherKey(keys, exchange, error),
						(error) -> stream(exchange, next, keys));
		});
	}

	private static KeyPool.Pick pick(ChatExchange exchange, KeyPool keys) {
		KeyPool.Pick pick = keys.pick(exchange.target().model());
		exchange.key((pick != null) ? pick.key() : null);
		return pick;
	}

	/** Whether the upstream refused the key and another one may serve the call instead. */
	private static boolean anotherKey(KeyPool keys, ChatExchange exchange, Throwable error) {
		return KeyPool.isRefusal(error) && keys.hasUsable(exchange.target().model());
	}

}
