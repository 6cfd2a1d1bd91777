package dev.junction.gateway.responses;

import java.util.Map;

import dev.junction.gateway.chat.EntryPoints;
import dev.junction.gateway.chat.SseEvent;
import dev.junction.gateway.pipeline.ChatExchange;
import dev.junction.gateway.pipeline.ChatPipeline;
import dev.junction.gateway.provider.ChatChunk;
import dev.junction.gateway.provider.ChatRequest;
import dev.junction.gateway.provider.ChatResult;
import dev.junction.gateway.provider.ClientApi;
import dev.junction.gateway.provider.NativeRequest;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import org.springframework.web.server.ServerWebExchange;

/**
 * OpenAI's Responses API, {@code POST /v1/responses}, through the same pipeline as chat
 * completions. A provider that speaks Responses gets the client's request unchanged
 * (state such as {@code previous_response_id} is its own to keep) and its answer or event
 * stream reaches the client as sent. Any other gets the chat completion that stands for
 * the request, and its answer is turned back into a {@code response}, or into the
 * Responses event stream; the gateway stores nothing ({@code store} is answered
 * {@code false}), so what needs stored state is refused there.
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
			ResponsesToChat.validate(body);
			ChatRequest chat = ChatRequest.translated(() -> this.toChat.translate(body),
					new NativeRequest(ClientApi.RESPONSES, body, Map.of()));
			ChatExchange exchange = EntryPoints.exchange(chat, "responses", web);
			String model = chat.model();
			if (!chat.stream()) {
				return this.pipeline.complete(exchange)
					.flatMap((result) -> EntryPoints.json(response(result, body, model, exchange)));
			}
			ResponsesEvents events = new ResponsesEvents(this.mapper,
					new ChatToResponsesStream(this.mapper, this.toResponses, body, model));
			return this.entry.events(this.pipeline.stream(exchange), (chunks) -> events(chunks, events), events::error,
					exchange.requestId());
		});
	}

	private byte[] response(ChatResult result, ObjectNode request, String model, ChatExchange exchange) {
		if (result.api() == ClientApi.RESPONSES) {
			return result.body();
		}
		JsonNode completion = this.entry.completion(result, exchange);
		return this.mapper.writeValueAsBytes(this.toResponses.response(completion, request, model));
	}

	private static Flux<SseEvent> events(Flux<ChatChunk> chunks, ResponsesEvents events) {
		return chunks.concatMapIterable(events::next).concatWith(Flux.defer(() -> Flux.fromIterable(events.end())));
	}

}
