package dev.junction.gateway.pipeline;

import dev.junction.gateway.provider.ChatChunk;
import dev.junction.gateway.provider.ChatResult;
import dev.junction.gateway.provider.KeyPool;
import dev.junction.gateway.provider.ProviderRegistry;
import dev.junction.gateway.provider.ProviderRequest;
import dev.junction.gateway.routing.Target;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** The last stage: calls the exchange's current target and measures the upstream time. */
public final class ProviderStage implements ChatStage {

	private final ProviderRegistry providers;

	public ProviderStage(ProviderRegistry providers) {
		this.providers = providers;
	}

	@Override
	public Mono<ChatResult> complete(ChatExchange exchange, Next next) {
		return Mono.defer(() -> {
			ProviderRegistry.Entry entry = entry(exchange);
			ProviderRequest request = request(exchange);
			long start = exchange.beginUpstream();
			return entry.provider().complete(request).doFinally((signal) -> exchange.endUpstream(start));
		});
	}

	@Override
	public Flux<ChatChunk> stream(ChatExchange exchange, Next next) {
		return Flux.defer(() -> {
			ProviderRegistry.Entry entry = entry(exchange);
			ProviderRequest request = request(exchange);
			long start = exchange.beginUpstream();
			return entry.provider().stream(request).doFinally((signal) -> exchange.endUpstream(start));
		});
	}

	private ProviderRegistry.Entry entry(ChatExchange exchange) {
		Target target = exchange.target();
		if (target == null) {
			throw new IllegalStateException("no target chosen before the provider stage");
		}
		return this.providers.get(target.provider());
	}

	/** The call for the current target, with the key the pool stage chose (none for keyless providers). */
	private static ProviderRequest request(ChatExchange exchange) {
		KeyPool.PooledKey key = exchange.key();
		return new ProviderRequest(exchange.request(), exchange.target().model(), (key != null) ? key.value() : null,
				exchange.requestId());
	}

}
