package dev.junction.gateway.chat;

import java.time.Instant;

import dev.junction.gateway.provider.ProviderRegistry;
import dev.junction.gateway.routing.ModelRouter;
import reactor.core.publisher.Mono;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.http.MediaType;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;

/** {@code GET /v1/models}: every configured alias and {@code provider/model}, in OpenAI's list shape. */
public final class ModelsHandler {

	private final byte[] body;

	public ModelsHandler(ProviderRegistry providers, ModelRouter router, ObjectMapper mapper) {
		long created = Instant.now().getEpochSecond();
		ObjectNode list = mapper.createObjectNode();
		list.put("object", "list");
		ArrayNode data = list.putArray("data");
		router.aliases().keySet().stream().sorted().forEach((alias) -> model(data, alias, "junction", created));
		for (ProviderRegistry.Entry entry : providers.all()) {
			for (String model : entry.provider().models()) {
				model(data, entry.provider().name() + "/" + model, entry.provider().name(), created);
			}
		}
		this.body = mapper.writeValueAsBytes(list);
	}

	public Mono<ServerResponse> handle(ServerRequest request) {
		return ServerResponse.ok().contentType(MediaType.APPLICATION_JSON).bodyValue(this.body);
	}

	private static void model(ArrayNode data, String id, String owner, long created) {
		data.addObject().put("id", id).put("object", "model").put("created", created).put("owned_by", owner);
	}

}
