package dev.junction.gateway.pipeline;

import dev.junction.gateway.provider.ChatOutput;
import dev.junction.gateway.provider.ChatProvider;
import dev.junction.gateway.provider.KeyPool;
import dev.junction.gateway.provider.ProviderRegistry;
import dev.junction.gateway.provider.ProviderRequest;
import dev.junction.gateway.routing.Target;
import reactor.core.publisher.Flux;

/** The last stage: calls the attempt's target with its key and measures the upstream time. */
public final class ProviderStage implements ChatStage {

	private final ProviderRegistry providers;

	public ProviderStage(ProviderRegistry providers) {
		this.providers = providers;
	}

	@Override
	public <T extends ChatOutput> Flux<T> apply(ChatExchange exchange, Attempt attempt, Next<T> next) {
		return Flux.defer(() -> {
			Target target = attempt.routed();
			ChatProvider provider = this.providers.get(target.provider()).provider();
			KeyPool.PooledKey key = attempt.key();
			ProviderRequest request = new ProviderRequest(attempt.request(), target.model(),
					(key != null) ? key.value() : null, exchange.requestId());
			long start = exchange.beginUpstream();
			return next.mode().call(provider, request).doFinally((signal) -> exchange.endUpstream(start));
		});
	}

}
