package dev.junction.gateway.chat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.junction.gateway.error.InvalidRequestException;
import dev.junction.gateway.provider.ProviderRegistry;
import dev.junction.gateway.routing.ModelRouter;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.http.MediaType;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;

/**
 * {@code GET /v1/models} and {@code GET /v1/models/{id}}, in OpenAI's shapes: every model
 * a client can ask for, that is the configured aliases, each provider's configured
 * models, and the models an OpenAI-compatible upstream lists (fetched and cached by its
 * provider).
 */
public final class ModelsHandler {

	private static final String ALIAS_OWNER = "junction";

	private final ProviderRegistry providers;

	private final List<String> aliases;

	private final ObjectMapper mapper;

	private final long created = Instant.now().getEpochSecond();

	public ModelsHandler(ProviderRegistry providers, ModelRouter router, ObjectMapper mapper) {
		this.providers = providers;
		this.aliases = router.aliases().keySet().stream().sorted().toList();
		this.mapper = mapper;
	}

	public Mono<ServerResponse> list(ServerRequest request) {
		return models().flatMap((models) -> {
			ObjectNode list = this.mapper.createObjectNode();
			list.put("object", "list");
			ArrayNode data = list.putArray("data");
			models.forEach((id, owner) -> model(data.addObject(), id, owner));
			return json(list);
		});
	}

	public Mono<ServerResponse> one(ServerRequest request) {
		String id = request.pathVariable("id").replaceFirst("^/", "");
		return models().flatMap((models) -> {
			String owner = models.get(id);
			if (owner == null) {
				return Mono.error(InvalidRequestException.modelNotFound(id));
			}
			return json(model(this.mapper.createObjectNode(), id, owner));
		});
	}

	/**
	 * Every model id with its owner, aliases first, then each provider's models in order.
	 */
	private Mono<Map<String, String>> models() {
		List<ProviderRegistry.Entry> entries = new ArrayList<>();
		this.providers.all().forEach(entries::add);
		return Flux.fromIterable(entries)
			.concatMap((entry) -> entry.provider()
				.availableModels()
				.map((names) -> names.stream().map((name) -> entry.provider().name() + "/" + name).toList()))
			.collectList()
			.map((perProvider) -> {
				Map<String, String> models = new LinkedHashMap<>();
				this.aliases.forEach((alias) -> models.put(alias, ALIAS_OWNER));
				for (int i = 0; i < perProvider.size(); i++) {
					String owner = entries.get(i).provider().name();
					perProvider.get(i).forEach((id) -> models.putIfAbsent(id, owner));
				}
				return models;
			});
	}

	private ObjectNode model(ObjectNode node, String id, String owner) {
		return node.put("id", id).put("object", "model").put("created", this.created).put("owned_by", owner);
	}

	private Mono<ServerResponse> json(ObjectNode body) {
		return ServerResponse.ok()
			.contentType(MediaType.APPLICATION_JSON)
			.bodyValue(this.mapper.writeValueAsBytes(body));
	}

}
