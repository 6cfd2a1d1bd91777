package dev.junction.gateway.embeddings;

import java.util.Map;

import dev.junction.gateway.chat.EntryPoints;
import dev.junction.gateway.error.InvalidRequestException;
import dev.junction.gateway.pipeline.ChatPipeline;
import dev.junction.gateway.provider.ChatRequest;
import dev.junction.gateway.provider.ClientApi;
import dev.junction.gateway.provider.NativeRequest;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;

import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import org.springframework.web.server.ServerWebExchange;

/**
 * OpenAI's {@code POST /v1/embeddings} through the same pipeline as chat completions,
 * passed through to providers that serve embeddings (OpenAI-compatible ones) with only
 * {@code model} rewritten; the answer reaches the client as the upstream sent it.
 */
public final class EmbeddingsHandler {

	private final ChatPipeline pipeline;

	private final EntryPoints entry;

	public EmbeddingsHandler(ChatPipeline pipeline, EntryPoints entry) {
		this.pipeline = pipeline;
		this.entry = entry;
	}

	public Mono<ServerResponse> create(ServerRequest request) {
		ServerWebExchange web = request.exchange();
		return this.entry.body(web).flatMap((body) -> {
			JsonNode model = body.get("model");
			if (model == null || model.isNull()) {
				throw InvalidRequestException.missingField("model");
			}
			if (!model.isString() || model.stringValue().isBlank()) {
				throw InvalidRequestException.invalidField("model", "'model' must be a non-empty string.");
			}
			JsonNode input = body.get("input");
			if (input == null || input.isNull()) {
				throw InvalidRequestException.missingField("input");
			}
			if (!(input.isString() || (input.isArray() && !input.isEmpty()))) {
				throw InvalidRequestException.invalidField("input",
						"'input' must be a string or a non-empty array of strings or token arrays.");
			}
			ChatRequest embeddings = ChatRequest.nativeOnly(model.stringValue(), false,
					new NativeRequest(ClientApi.EMBEDDINGS, body, Map.of()), null);
			return this.pipeline.complete(EntryPoints.exchange(embeddings, "embeddings", web))
				.flatMap((result) -> EntryPoints.json(result.body()));
		});
	}

}
