package dev.junction.gateway.routing;

import dev.junction.gateway.pipeline.ChatExchange;
import dev.junction.gateway.pipeline.ChatStage;
import dev.junction.gateway.provider.ChatChunk;
import dev.junction.gateway.provider.ChatResult;
import dev.junction.gateway.error.InvalidRequestException;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;

/**
 * Resolves the requested model to a route and points the exchange at its first target. A
 * request may name its own fallback order in {@code "models": [...]}, which is removed before
 * the request goes upstream.
 */
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

	private static java.util.List<String> strings(JsonNode models) {
		java.util.List<String> names = new java.util.ArrayList<>();
		for (JsonNode model : models) {
			if (!model.isString() || model.stringValue().isBlank()) {
				throw InvalidRequestException.invalidField("models", "'models' must be a list of model names.");
			}
			names.add(model.stringValue());
		}
		return names;
	}

	private void route(ChatExchange exchange) {
		JsonNode models = exchange.request().body().remove("models");
		Route route = (models != null && models.isArray() && !models.isEmpty())
				? this.router.resolveAll(exchange.request().model(), strings(models))
				: this.router.resolve(exchange.request().model());
		exchange.route(route);
		exchange.target(route.primary());
	}

}
