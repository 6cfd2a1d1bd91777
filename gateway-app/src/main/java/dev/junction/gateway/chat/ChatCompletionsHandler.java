package dev.junction.gateway.chat;

import java.nio.charset.StandardCharsets;

import dev.junction.gateway.auth.ClientIdentity;
import dev.junction.gateway.error.InvalidRequestException;
import dev.junction.gateway.error.OpenAiErrors;
import dev.junction.gateway.metrics.GatewayTimingFilter;
import dev.junction.gateway.pipeline.ChatExchange;
import dev.junction.gateway.pipeline.ChatPipeline;
import dev.junction.gateway.provider.ChatChunk;
import dev.junction.gateway.provider.ChatRequest;
import dev.junction.gateway.requestid.RequestId;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.ObjectMapper;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferFactory;
import org.springframework.http.CacheControl;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import org.springframework.web.server.ServerWebExchange;

/**
 * {@code POST /v1/chat/completions}: OpenAI Chat Completions through the pipeline, as one
 * JSON answer or, with {@code stream: true}, as Server-Sent Events, each flushed as soon
 * as no other is ready to go with it (Reactor Netty flushes a written body once it has
 * written what is pending). A stream that fails before its first chunk is answered with
 * an error status; one that fails later ends with an error event and no {@code [DONE]}.
 */
public final class ChatCompletionsHandler {

	/**
	 * Request header: {@code true} lets the cache keep the answer to a sampled request.
	 */
	public static final String CACHE_SAMPLED = "X-Junction-Cache-Sampled";

	private static final byte[] DONE = "data: [DONE]\n\n".getBytes(StandardCharsets.US_ASCII);

	private final ChatPipeline pipeline;

	private final RequestBodies bodies;

	private final ObjectMapper mapper;

	private final OpenAiErrors errors;

	public ChatCompletionsHandler(ChatPipeline pipeline, RequestBodies bodies, ObjectMapper mapper,
			OpenAiErrors errors) {
		this.pipeline = pipeline;
		this.bodies = bodies;
		this.mapper = mapper;
		this.errors = errors;
	}

	public Mono<ServerResponse> handle(ServerRequest request) {
		ServerWebExchange web = request.exchange();
		return this.bodies.read(web.getRequest()).flatMap((body) -> {
			if (RequestBodies.isBlank(body)) {
				return Mono.error(InvalidRequestException.malformedJson("the request body is empty"));
			}
			HttpHeaders headers = web.getRequest().getHeaders();
			ChatExchange exchange = new ChatExchange(ChatRequest.parse(body, this.mapper), ClientIdentity.of(web),
					"chat", GatewayTimingFilter.start(web), RequestId.of(web), noCache(headers.getCacheControl()),
					"true".equalsIgnoreCase(headers.getFirst(CACHE_SAMPLED)));
			web.getAttributes().put(ChatExchange.ATTRIBUTE, exchange);
			web.getResponse().beforeCommit(() -> Mono.fromRunnable(() -> headers(exchange, web.getResponse())));
			return exchange.request().stream() ? stream(exchange) : complete(exchange);
		});
	}

	/**
	 * The client's rate-limit budget, the cache result, the request's cost and its key's
	 * budget, set as the response commits; a stream's cost follows in trailers.
	 */
	public static void headers(ChatExchange exchange, ServerHttpResponse response) {
		HttpHeaders headers = response.getHeaders();
		ChatExchange.RateLimitStatus limit = exchange.rateLimit();
		if (limit != null) {
			headers.set("X-RateLimit-Limit", Long.toString(limit.limit()));
			headers.set("X-RateLimit-Remaining", Long.toString(limit.remaining()));
			headers.set("X-RateLimit-Reset", Long.toString(limit.resetSeconds()));
		}
		if (exchange.cacheStatus() != null) {
			headers.set("X-Junction-Cache", exchange.cacheStatus().name());
		}
		CostHeaders.set(headers, exchange);
		CostHeaders.trailers(response, exchange);
	}

	private static boolean noCache(String cacheControl) {
		return cacheControl != null && (cacheControl.contains("no-cache") || cacheControl.contains("no-store"));
	}

	private Mono<ServerResponse> complete(ChatExchange exchange) {
		return this.pipeline.complete(exchange)
			.flatMap((result) -> ServerResponse.ok()
				.contentType(MediaType.APPLICATION_JSON)
				.body((response, context) -> response
					.writeWith(Mono.fromSupplier(() -> response.bufferFactory().wrap(result.body())))));
	}

	private Mono<ServerResponse> stream(ChatExchange exchange) {
		boolean includeUsage = exchange.request().includeUsage();
		return this.pipeline.stream(exchange)
			.filter((chunk) -> includeUsage || !chunk.usageOnly())
			.switchOnFirst((first, chunks) -> first.hasError() ? Mono.error(first.getThrowable()) : Mono.just(chunks),
					false)
			.single()
			.flatMap((chunks) -> ServerResponse.ok()
				.contentType(MediaType.TEXT_EVENT_STREAM)
				.cacheControl(CacheControl.noCache())
				.header("X-Accel-Buffering", "no")
				.body((response, context) -> writeEvents(response, chunks, exchange.requestId())));
	}

	private Mono<Void> writeEvents(ServerHttpResponse response, Flux<ChatChunk> chunks, String requestId) {
		DataBufferFactory buffers = response.bufferFactory();
		Flux<DataBuffer> events = chunks.map((chunk) -> event(buffers, chunk.json()))
			.concatWith(Mono.fromSupplier(() -> buffers.wrap(DONE)))
			.onErrorResume((error) -> Mono.fromSupplier(
					() -> event(buffers, this.errors.tree(this.errors.streamFailure(error, requestId)).toString())));
		return response.writeWith(events);
	}

	/**
	 * One event, in a buffer over its own bytes: one the client's going away leaves
	 * unwritten is the garbage collector's, never a pooled buffer left unreleased.
	 */
	private static DataBuffer event(DataBufferFactory buffers, String json) {
		return buffers.wrap(("data: " + json + "\n\n").getBytes(StandardCharsets.UTF_8));
	}

}
