package dev.junction.gateway.chat;

import java.nio.charset.StandardCharsets;
import java.util.function.Function;

import dev.junction.gateway.auth.ClientIdentity;
import dev.junction.gateway.error.GatewayException;
import dev.junction.gateway.error.InvalidRequestException;
import dev.junction.gateway.error.OpenAiErrors;
import dev.junction.gateway.error.UpstreamException;
import dev.junction.gateway.metrics.GatewayTimingFilter;
import dev.junction.gateway.pipeline.ChatExchange;
import dev.junction.gateway.provider.ChatRequest;
import dev.junction.gateway.provider.ChatResult;
import dev.junction.gateway.requestid.RequestId;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferFactory;
import org.springframework.http.CacheControl;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.web.reactive.function.server.ServerResponse;
import org.springframework.web.server.ServerWebExchange;

/**
 * What the entry points of other APIs than Chat Completions share: reading the body as a
 * JSON object, opening the pipeline's exchange, and answering JSON or a stream of named
 * events, a stream that fails after it started ending with the API's own error event.
 */
public final class EntryPoints {

	private final RequestBodies bodies;

	private final ObjectMapper mapper;

	private final OpenAiErrors errors;

	public EntryPoints(RequestBodies bodies, ObjectMapper mapper, OpenAiErrors errors) {
		this.bodies = bodies;
		this.mapper = mapper;
		this.errors = errors;
	}

	/** The request body as a JSON object; anything else is a 400. */
	public Mono<ObjectNode> body(ServerWebExchange web) {
		return this.bodies.read(web.getRequest()).map((bytes) -> {
			if (RequestBodies.isBlank(bytes)) {
				throw InvalidRequestException.malformedJson("the request body is empty");
			}
			JsonNode tree;
			try {
				tree = this.mapper.readTree(bytes);
			}
			catch (JacksonException ex) {
				throw InvalidRequestException.malformedJson(ex);
			}
			if (tree == null || !tree.isObject()) {
				throw InvalidRequestException.malformedJson("expected a JSON object");
			}
			return (ObjectNode) tree;
		});
	}

	/** The pipeline's exchange for a request, with the response headers it reports. */
	public static ChatExchange exchange(ChatRequest chat, String entryPoint, ServerWebExchange web) {
		HttpHeaders headers = web.getRequest().getHeaders();
		String cacheControl = headers.getCacheControl();
		boolean noCache = cacheControl != null
				&& (cacheControl.contains("no-cache") || cacheControl.contains("no-store"));
		ChatExchange exchange = new ChatExchange(chat, ClientIdentity.of(web), entryPoint,
				GatewayTimingFilter.start(web), RequestId.of(web), noCache,
				"true".equalsIgnoreCase(headers.getFirst(ChatCompletionsHandler.CACHE_SAMPLED)));
		web.getAttributes().put(ChatExchange.ATTRIBUTE, exchange);
		web.getResponse()
			.beforeCommit(() -> Mono.fromRunnable(() -> ChatCompletionsHandler.headers(exchange, web.getResponse())));
		return exchange;
	}

	/**
	 * The upstream that answered {@code exchange}, as errors and translations name it.
	 */
	public static String provider(ChatExchange exchange) {
		return (exchange.target() != null) ? exchange.target().provider() : "upstream";
	}

	/**
	 * The chat completion a translated route answered; one that is not JSON is its
	 * upstream's 502.
	 */
	public JsonNode completion(ChatResult result, ChatExchange exchange) {
		try {
			return this.mapper.readTree(result.body());
		}
		catch (JacksonException ex) {
			throw UpstreamException.invalidResponse(provider(exchange), "the response is not valid JSON");
		}
	}

	/** A JSON answer. */
	public static Mono<ServerResponse> json(byte[] body) {
		return ServerResponse.ok()
			.contentType(MediaType.APPLICATION_JSON)
			.body((response, context) -> response
				.writeWith(Mono.fromSupplier(() -> response.bufferFactory().wrap(body))));
	}

	/**
	 * A stream of named events: a failure before the first is answered with its status by
	 * the error handler, a later one ends the stream with {@code errorEvent}'s event.
	 */
	public <T> Mono<ServerResponse> events(Flux<T> outputs, Function<Flux<T>, Flux<SseEvent>> events,
			Function<GatewayException, SseEvent> errorEvent, String requestId) {
		return outputs
			.switchOnFirst((first, all) -> first.hasError() ? Mono.error(first.getThrowable()) : Mono.just(all), false)
			.single()
			.flatMap((all) -> ServerResponse.ok()
				.contentType(MediaType.TEXT_EVENT_STREAM)
				.cacheControl(CacheControl.noCache())
				.header("X-Accel-Buffering", "no")
				.body((response, context) -> {
					DataBufferFactory buffers = response.bufferFactory();
					Flux<DataBuffer> data = events.apply(all)
						.map((event) -> buffer(buffers, event))
						.onErrorResume((error) -> Mono.fromSupplier(
								() -> buffer(buffers, errorEvent.apply(this.errors.streamFailure(error, requestId)))));
					return response.writeWith(data);
				}));
	}

	private static DataBuffer buffer(DataBufferFactory buffers, SseEvent event) {
		return buffers
			.wrap(("event: " + event.name() + "\ndata: " + event.json() + "\n\n").getBytes(StandardCharsets.UTF_8));
	}

}
