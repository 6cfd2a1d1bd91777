package dev.junction.gateway.responses;

import java.util.Map;

import dev.junction.gateway.chat.EntryPoints;
import dev.junction.gateway.chat.SseEvent;
import dev.junction.gateway.error.UpstreamException;
import dev.junction.gateway.pipeline.ChatExchange;
import dev.junction.gateway.pipeline.ChatPipeline;
import dev.junction.gateway.provider.ChatChunk;
import dev.junction.gateway.provider.ChatRequest;
import dev.junction.gateway.provider.ChatResult;
import dev.junction.gateway.provider.ClientApi;
import dev.junction.gateway.provider.NativeRequest;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import org.springframework.web.server.ServerWebExchange;

/**
 * OpenAI's Responses API, {@code POST /v1/responses}, through the same pipeline as chat
 * completions: the request is translated into the chat completion that stands for it and the
 * answer back into a {@code response}, or into the Responses event stream. Nothing is stored:
 * {@code store} is answered {@code false}.
 */
public final class ResponsesHandler {

	private final ChatPipeline pipeline;

	private final EntryPoints entry;

	private final ObjectMapper mapper;

	private final ResponsesToChat toChat;

	private final ChatToResponses toResponses;

	public ResponsesHandler(ChatPipeline pipeline, EntryPoints entry, ObjectMapper mapper) {
		this.pipeline = pipeline;
		this.entry = entry;
		this.mapper = mapper;
		this.toChat = new ResponsesToChat(mapper);
		this.toResponses = new ChatToResponses(mapper);
	}

	public Mono<ServerResponse> create(ServerRequest request) {
		ServerWebExchange web = request.exchange();
		return this.entry.body(web).flatMap((body) -> {
			ChatRequest chat = ChatRequest.of(this.toChat.translate(body))
				.standingFor(new NativeRequest(ClientApi.RESPONSES, body, Map.of()));
			ChatExchange exchange = EntryPoints.exchange(chat, "responses", web);
			String model = chat.model();
			if (!chat.stream()) {
				return this.pipeline.complete(exchange)
					.flatMap((result) -> EntryPoints.json(response(result, body, model, exchange)));
			}
			ChatToResponsesStream translator = new ChatToResponsesStream(this.mapper, this.toResponses, body, model);
			return this.entry.events(this.pipeline.stream(exchange), (chunks) -> events(chunks, translator),
					translator::error, exchange.requestId());
		});
	}

	private byte[] response(ChatResult result, ObjectNode request, String model, ChatExchange exchange) {
		String provider = (exchange.target() != null) ? exchange.target().provider() : "upstream";
		JsonNode completion;
		try {
			completion = this.mapper.readTree(result.body());
		}
		catch (JacksonException ex) {
			throw UpstreamException.status(provider, 502, null, "invalid_upstream_response",
					"the response is not valid JSON", null);
		}
		return this.mapper.writeValueAsBytes(this.toResponses.response(completion, request, model));
	}

	private static Flux<SseEvent> events(Flux<ChatChunk> chunks, ChatToResponsesStream translator) {
		return chunks.concatMapIterable((chunk) -> translator.next(chunk.json()))
			.concatWith(Flux.defer(() -> Flux.fromIterable(translator.end())));
	}

}
