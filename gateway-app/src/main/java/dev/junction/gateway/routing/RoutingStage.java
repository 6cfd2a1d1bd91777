package dev.junction.gateway.routing;

import dev.junction.gateway.pipeline.ChatExchange;
import dev.junction.gateway.pipeline.ChatStage;
import dev.junction.gateway.provider.ChatChunk;
import dev.junction.gateway.provider.ChatResult;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** Resolves the requested model to a route and points the exchange at its first target. */
public final class RoutingStage implements ChatStage {

	private final ModelRouter router;

	public RoutingStage(ModelRouter router) {
		this.router = router;
	}

	@Override
	public Mono<ChatResult> complete(ChatExchange exchange, Next next) {
		return Mono.defer(() -> {
			route(exchange);
			return next.complete(exchange);
		});
	}

	@Override
	public Flux<ChatChunk> stream(ChatExchange exchange, Next next) {
		return Flux.defer(() -> {
			route(exchange);
			return next.stream(exchange);
		});
	}

	private void route(ChatExchange exchange) {
		Route route = this.router.resolve(exchange.request().model());
		exchange.route(route);
		exchange.target(route.primary());
	}

}
