package dev.junction.gateway.pipeline;

import java.util.function.Supplier;

import dev.junction.gateway.error.InvalidRequestException;
import dev.junction.gateway.provider.ChatOutput;
import dev.junction.gateway.provider.ChatProvider;
import dev.junction.gateway.provider.ChatRequest;
import dev.junction.gateway.provider.ChatResult;
import dev.junction.gateway.provider.ClientApi;
import dev.junction.gateway.provider.KeyPool;
import dev.junction.gateway.provider.ProviderRegistry;
import dev.junction.gateway.provider.ProviderRequest;
import dev.junction.gateway.routing.Target;
import dev.junction.gateway.tracing.RequestTracing;
import reactor.core.publisher.Flux;

/**
 * The last stage: calls the attempt's target with its key (the caller's own, when it
 * brought one) and measures the upstream time. A request sent in another API than Chat
 * Completions goes to a provider that speaks that API as the client sent it, to any other
 * as its chat form; one without a chat form gets the gateway's own answer where it has
 * one (a token count's estimate), else it is refused.
 */
public final class ProviderStage implements ChatStage {

	private final ProviderRegistry providers;

	private final RequestTracing tracing;

	public ProviderStage(ProviderRegistry providers) {
		this(providers, RequestTracing.OFF);
	}

	/**
	 * @param tracing what continues the request's trace in the provider call
	 */
	public ProviderStage(ProviderRegistry providers, RequestTracing tracing) {
		this.providers = providers;
		this.tracing = tracing;
	}

	@Override
	@SuppressWarnings("unchecked")
	public <T extends ChatOutput> Flux<T> apply(ChatExchange exchange, Attempt attempt, Next<T> next) {
		return Flux.deferContextual((context) -> {
			Target target = attempt.routed();
			ChatProvider provider = this.providers.get(target.provider()).provider();
			Supplier<ChatResult> standIn = attempt.request().standIn();
			if (standIn != null && !next.mode().streaming() && !provider.speaks(attempt.request().api())) {
				// A complete call: T is ChatResult.
				return (Flux<T>) Flux.just(standIn.get());
			}
			KeyPool.PooledKey key = attempt.key();
			String callerKey = exchange.callerKey();
			String apiKey = (callerKey != null) ? callerKey : (key != null) ? key.value() : null;
			ProviderRequest request = new ProviderRequest(attempt.request(), target.model(), apiKey,
					exchange.requestId(), api(provider, attempt.request()), callerKey != null,
					this.tracing.headers(context));
			long start = exchange.beginUpstream();
			return next.mode().call(provider, request).doFinally((signal) -> exchange.endUpstream(start));
		});
	}

	private static ClientApi api(ChatProvider provider, ChatRequest request) {
		ClientApi api = request.api();
		if (api == ClientApi.CHAT_COMPLETIONS || provider.speaks(api)) {
			return api;
		}
		if (!request.hasChatForm()) {
			InvalidRequestException why = request.noChatForm();
			if (why != null) {
				throw why;
			}
			throw InvalidRequestException.unsupported("model", "Provider '" + provider.name() + "' does not serve "
					+ api.description() + ": choose a model of a provider that does.");
		}
		return ClientApi.CHAT_COMPLETIONS;
	}

}
