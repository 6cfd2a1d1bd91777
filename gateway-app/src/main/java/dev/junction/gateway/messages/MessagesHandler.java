package dev.junction.gateway.messages;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.junction.gateway.chat.EntryPoints;
import dev.junction.gateway.chat.SseEvent;
import dev.junction.gateway.error.AnthropicErrors;
import dev.junction.gateway.pipeline.ChatExchange;
import dev.junction.gateway.pipeline.ChatPipeline;
import dev.junction.gateway.provider.ChatChunk;
import dev.junction.gateway.provider.ChatRequest;
import dev.junction.gateway.provider.ChatResult;
import dev.junction.gateway.provider.ClientApi;
import dev.junction.gateway.provider.NativeRequest;
import dev.junction.gateway.provider.Usage;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import org.springframework.web.server.ServerWebExchange;

/**
 * Anthropic's Messages API, {@code POST /v1/messages} and
 * {@code POST /v1/messages/count_tokens}, through the same pipeline as chat completions.
 * A provider that speaks Messages gets the client's request unchanged
 * ({@code anthropic-version} and {@code anthropic-beta} included) and its answer reaches
 * the client as sent; any other gets the chat completion that stands for it, and its
 * answer is turned back into a message or into the Messages event stream. Token counts
 * come from a provider that counts them, or are estimated. A stream silent for long gets
 * {@code ping} events ({@link MessagesProperties#pingInterval()}).
 */
public final class MessagesHandler {

	/**
	 * The client's headers that travel with its request to a provider that speaks
	 * Messages.
	 */
	static final List<String> FORWARDED = List.of("anthropic-version", "anthropic-beta");

	/** Response header marking a token count that is the gateway's estimate. */
	public static final String TOKEN_COUNT = "X-Junction-Token-Count";

	private final ChatPipeline pipeline;

	private final EntryPoints entry;

	private final ObjectMapper mapper;

	private final AnthropicErrors errors;

	private final MessagesToChat toChat;

	private final ChatToMessages toMessages;

	private final Duration pingInterval;

	public MessagesHandler(ChatPipeline pipeline, EntryPoints entry, ObjectMapper mapper, AnthropicErrors errors,
			Duration pingInterval) {
		this.pingInterval = pingInterval;
		this.pipeline = pipeline;
		this.entry = entry;
		this.mapper = mapper;
		this.errors = errors;
		this.toChat = new MessagesToChat(mapper);
		this.toMessages = new ChatToMessages(mapper);
	}

	public Mono<ServerResponse> messages(ServerRequest request) {
		ServerWebExchange web = request.exchange();
		return this.entry.body(web).flatMap((body) -> {
			MessagesToChat.validate(body, true);
			ChatRequest chat = ChatRequest.translated(() -> this.toChat.translate(body),
					original(ClientApi.ANTHROPIC_MESSAGES, body, web));
			ChatExchange exchange = EntryPoints.exchange(chat, "messages", web);
			String model = chat.model();
			if (!chat.stream()) {
				return this.pipeline.complete(exchange)
					.flatMap((result) -> EntryPoints.json(message(result, model, exchange)));
			}
			return this.entry.events(StreamPings.around(this.pipeline.stream(exchange), this.pingInterval),
					(chunks) -> events(chunks, model),
					(failure) -> new SseEvent("error", this.errors.tree(failure, exchange.requestId()).toString()),
					exchange.requestId());
		});
	}

	public Mono<ServerResponse> countTokens(ServerRequest request) {
		ServerWebExchange web = request.exchange();
		return this.entry.body(web).flatMap((body) -> {
			MessagesToChat.validate(body, false);
			AtomicBoolean estimated = new AtomicBoolean();
			ChatRequest chat = ChatRequest.standingIn(body.path("model").stringValue(),
					original(ClientApi.ANTHROPIC_COUNT_TOKENS, body, web), () -> {
						estimated.set(true);
						ObjectNode count = this.mapper.createObjectNode().put("input_tokens", TokenEstimate.of(body));
						return new ChatResult(this.mapper.writeValueAsBytes(count), Usage.NONE, null, null,
								ClientApi.ANTHROPIC_COUNT_TOKENS);
					});
			return this.pipeline.complete(EntryPoints.exchange(chat, "count_tokens", web))
				.flatMap((result) -> ServerResponse.ok().contentType(MediaType.APPLICATION_JSON).headers((headers) -> {
					if (estimated.get()) {
						headers.set(TOKEN_COUNT, "estimate");
					}
				}).bodyValue(result.body()));
		});
	}

	private static NativeRequest original(ClientApi api, ObjectNode body, ServerWebExchange web) {
		Map<String, String> headers = new LinkedHashMap<>();
		HttpHeaders sent = web.getRequest().getHeaders();
		for (String name : FORWARDED) {
			List<String> values = sent.get(name);
			if (values != null && !values.isEmpty()) {
				headers.put(name, String.join(",", values));
			}
		}
		return new NativeRequest(api, body, headers);
	}

	private byte[] message(ChatResult result, String model, ChatExchange exchange) {
		if (result.api() == ClientApi.ANTHROPIC_MESSAGES) {
			return result.body();
		}
		JsonNode completion = this.entry.completion(result, exchange);
		return this.mapper
			.writeValueAsBytes(this.toMessages.message(completion, model, EntryPoints.provider(exchange)));
	}

	/**
	 * The Messages events of a stream: a native one as it comes, a chat one translated.
	 */
	private Flux<SseEvent> events(Flux<ChatChunk> chunks, String model) {
		return Flux.defer(() -> {
			ChatToMessagesStream translator = new ChatToMessagesStream(this.mapper, this.toMessages, model);
			boolean[] nativeStream = { false };
			return chunks.concatMapIterable((chunk) -> {
				if (chunk == StreamPings.PING) {
					return List.of(new SseEvent("ping", chunk.json()));
				}
				if (chunk.api() == ClientApi.ANTHROPIC_MESSAGES) {
					nativeStream[0] = true;
					return List.of(new SseEvent((chunk.event() != null) ? chunk.event() : "message", chunk.json()));
				}
				return translator.next(chunk.json());
			}).concatWith(Flux.defer(() -> (!nativeStream[0]) ? Flux.fromIterable(translator.end()) : Flux.empty()));
		});
	}

}
