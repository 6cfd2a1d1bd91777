package dev.junction.gateway.pipeline;

import java.util.ArrayList;
import java.util.List;

import dev.junction.gateway.error.InvalidRequestException;
import dev.junction.gateway.provider.ChatOutput;
import dev.junction.gateway.provider.ChatRequest;
import dev.junction.gateway.routing.ModelRouter;
import dev.junction.gateway.routing.Route;
import reactor.core.publisher.Flux;
import tools.jackson.databind.JsonNode;

/**
 * Resolves the requested model to a route and sends the attempt to its first target. A
 * request may name its own fallback order in {@code "models": [...]}, which is left out
 * of the request as it goes upstream.
 */
public final class RoutingStage implements ChatStage {

	private static final String MODELS = "models";

	private final ModelRouter router;

	public RoutingStage(ModelRouter router) {
		this.router = router;
	}

	@Override
	public <T extends ChatOutput> Flux<T> apply(ChatExchange exchange, Attempt attempt, Next<T> next) {
		return Flux.defer(() -> {
			ChatRequest request = attempt.request();
			JsonNode models = request.body().get(MODELS);
			Route route = (models != null && models.isArray() && !models.isEmpty())
					? this.router.resolveAll(request.model(), strings(models)) : this.router.resolve(request.model());
			exchange.route(route);
			ChatRequest sent = (models != null) ? request.without(MODELS) : request;
			return next.apply(exchange, new Attempt(route.primary(), null, sent));
		});
	}

	private static List<String> strings(JsonNode models) {
		List<String> names = new ArrayList<>();
		for (JsonNode model : models) {
			if (!model.isString() || model.stringValue().isBlank()) {
				throw InvalidRequestException.invalidField(MODELS, "'models' must be a list of model names.");
			}
			names.add(model.stringValue());
		}
		return names;
	}

}
