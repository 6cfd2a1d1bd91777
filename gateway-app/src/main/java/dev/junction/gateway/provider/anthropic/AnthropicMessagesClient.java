package dev.junction.gateway.provider.anthropic;

import java.time.Duration;

import dev.junction.gateway.error.RetryAfter;
import dev.junction.gateway.error.UpstreamException;
import dev.junction.gateway.provider.ChatChunk;
import dev.junction.gateway.provider.ChatResult;
import dev.junction.gateway.provider.ClientApi;
import dev.junction.gateway.provider.KeyedHttpClients;
import dev.junction.gateway.provider.NativeRequest;
import dev.junction.gateway.provider.PooledHttpClient;
import dev.junction.gateway.provider.ProviderRequest;
import dev.junction.gateway.provider.StreamEnd;
import dev.junction.gateway.provider.UpstreamFailures;
import dev.junction.gateway.provider.Usage;
import dev.junction.gateway.provider.openai.SseLineDecoder;
import dev.junction.gateway.requestid.RequestId;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponseStatus;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.netty.ByteBufFlux;
import reactor.netty.http.client.HttpClient;
import reactor.netty.http.client.HttpClientResponse;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Anthropic's Messages API ({@code /v1/messages}, {@code /v1/messages/count_tokens})
 * passed through on Reactor Netty: the client's JSON goes upstream with only
 * {@code model} rewritten, with the client's {@code anthropic-version} (or the default)
 * and {@code anthropic-beta}, and the answer reaches the client as sent, every field and
 * content block included.
 */
final class AnthropicMessagesClient {

	/** The API version sent when the client names none. */
	static final String DEFAULT_VERSION = "2023-06-01";

	private final String name;

	private final String messagesUri;

	private final String countTokensUri;

	private final KeyedHttpClients clients;

	private final Duration timeout;

	private final ObjectMapper mapper;

	/**
	 * @param name the provider's configured name
	 * @param baseUrl Anthropic's base URL, without {@code /v1}
	 * @param timeout a call's one timeout; for streams, the longest wait for an event
	 * @param connectTimeout the longest a TCP connect may take
	 * @param maxConnections pooled connections
	 * @param mapper JSON
	 */
	AnthropicMessagesClient(String name, String baseUrl, Duration timeout, Duration connectTimeout, int maxConnections,
			ObjectMapper mapper) {
		this.name = name;
		this.timeout = timeout;
		this.mapper = mapper;
		String base = baseUrl.replaceAll("/+$", "").replaceAll("/v1$", "");
		this.messagesUri = base + "/v1/messages";
		this.countTokensUri = base + "/v1/messages/count_tokens";
		this.clients = new KeyedHttpClients(
				PooledHttpClient.create("provider-" + name + "-messages", connectTimeout, maxConnections),
				(headers, key) -> headers.set("x-api-key", key));
	}

	Mono<ChatResult> complete(ProviderRequest request) {
		boolean count = request.api() == ClientApi.ANTHROPIC_COUNT_TOKENS;
		byte[] json = this.mapper.writeValueAsBytes(body(request, count ? null : false));
		return post(request, count ? this.countTokensUri : this.messagesUri, json, null)
			.responseSingle((response, content) -> content.asByteArray()
				.defaultIfEmpty(new byte[0])
				.map((bytes) -> toResult(response, bytes, request)))
			.timeout(this.timeout, Mono.error(() -> UpstreamException.timeout(this.name, this.timeout)))
			.onErrorMap((error) -> UpstreamFailures.translate(this.name, error));
	}

	Flux<ChatChunk> stream(ProviderRequest request) {
		byte[] json = this.mapper.writeValueAsBytes(body(request, true));
		Flux<ChatChunk> chunks = post(request, this.messagesUri, json, this.timeout).response((response, content) -> {
			if (response.status().code() >= 400) {
				return content.aggregate()
					.asByteArray()
					.defaultIfEmpty(new byte[0])
					.flatMapMany((bytes) -> Mono.error(error(response.status().code(), bytes,
							response.responseHeaders().get(HttpHeaderNames.RETRY_AFTER), request.apiKey())));
			}
			return events(content, request.apiKey());
		});
		return UpstreamFailures.timeouts(chunks, this.name, this.timeout)
			.onErrorMap((error) -> UpstreamFailures.translate(this.name, error));
	}

	/**
	 * The client's JSON with the provider's model (and the stream flag, when given); a
	 * copy.
	 */
	private static ObjectNode body(ProviderRequest request, @Nullable Boolean stream) {
		ObjectNode client = request.original().body();
		ObjectNode body = client.objectNode();
		body.setAll(client);
		body.put("model", request.model());
		if (stream != null) {
			if (stream) {
				body.put("stream", true);
			}
			else if (body.has("stream")) {
				body.put("stream", false);
			}
		}
		return body;
	}

	/**
	 * @param readTimeout the longest wait for each read of the answer, or null for no
	 * limit
	 */
	private HttpClient.ResponseReceiver<?> post(ProviderRequest request, String uri, byte[] json,
			@Nullable Duration readTimeout) {
		NativeRequest original = request.original();
		HttpClient client = this.clients.forRequest(request);
		return client.post().uri(uri).send((outbound, body) -> {
			if (readTimeout != null) {
				outbound.responseTimeout(readTimeout);
			}
			outbound.header(RequestId.HEADER, request.requestId());
			request.trace().forEach(outbound::header);
			outbound.header("anthropic-version", original.headers().getOrDefault("anthropic-version", DEFAULT_VERSION));
			String beta = original.headers().get("anthropic-beta");
			if (beta != null) {
				outbound.header("anthropic-beta", beta);
			}
			return body.send(Mono.fromSupplier(() -> Unpooled.wrappedBuffer(json)));
		});
	}

	/**
	 * The SSE events up to {@code message_stop}; a body that ends before it is a failure.
	 */
	private Flux<ChatChunk> events(ByteBufFlux content, @Nullable String apiKey) {
		return Flux.defer(() -> {
			SseLineDecoder decoder = new SseLineDecoder();
			long[] input = { 0 };
			Flux<ChatChunk> chunks = content.map((ByteBuf buffer) -> decoder.decode(buffer))
				.concatMapIterable((lines) -> lines)
				.map((data) -> toChunk(data, input, apiKey));
			return StreamEnd.upTo(chunks, (chunk) -> "message_stop".equals(chunk.event()), true,
					() -> UpstreamException.connection(this.name, "the stream ended before message_stop", null));
		});
	}

	private ChatChunk toChunk(String data, long[] input, @Nullable String apiKey) {
		JsonNode event = readTree(data.getBytes(java.nio.charset.StandardCharsets.UTF_8));
		String type = event.path("type").asString("message");
		Usage usage = null;
		switch (type) {
			case "error" -> {
				JsonNode error = event.path("error");
				String errorType = error.path("type").asString("api_error");
				throw UpstreamException.status(this.name, "overloaded_error".equals(errorType) ? 529 : 500, errorType,
						null, UpstreamFailures.redact(error.path("message").asString("error in stream"), apiKey), null);
			}
			case "message_start" -> {
				JsonNode reported = event.path("message").path("usage");
				input[0] = inputTokens(reported);
				usage = new Usage(input[0], reported.path("output_tokens").asLong(0));
			}
			case "message_delta" -> {
				JsonNode reported = event.path("usage");
				if (reported.has("input_tokens")) {
					input[0] = inputTokens(reported);
				}
				usage = new Usage(input[0], reported.path("output_tokens").asLong(0));
			}
			default -> {
			}
		}
		return new ChatChunk(data, usage, false, ClientApi.ANTHROPIC_MESSAGES, type);
	}

	private ChatResult toResult(HttpClientResponse response, byte[] bytes, ProviderRequest request) {
		if (response.status().code() >= 400) {
			throw error(response.status().code(), bytes, response.responseHeaders().get(HttpHeaderNames.RETRY_AFTER),
					request.apiKey());
		}
		JsonNode tree = readTree(bytes);
		if (request.api() == ClientApi.ANTHROPIC_COUNT_TOKENS) {
			return new ChatResult(bytes, Usage.NONE, null, null, request.api());
		}
		JsonNode usage = tree.path("usage");
		return new ChatResult(bytes, new Usage(inputTokens(usage), usage.path("output_tokens").asLong(0)),
				tree.path("stop_reason").asString(null), tree.path("model").asString(null), request.api());
	}

	/** All input tokens, cached ones included. */
	private static long inputTokens(JsonNode usage) {
		return usage.path("input_tokens").asLong(0) + usage.path("cache_creation_input_tokens").asLong(0)
				+ usage.path("cache_read_input_tokens").asLong(0);
	}

	private JsonNode readTree(byte[] bytes) {
		try {
			return this.mapper.readTree(bytes);
		}
		catch (JacksonException ex) {
			throw UpstreamException.invalidResponse(this.name, "the response is not valid JSON");
		}
	}

	/** Anthropic's error, with the key it was sent cut out of whatever it quotes. */
	private UpstreamException error(int status, byte[] bytes, @Nullable String retryAfter, @Nullable String apiKey) {
		String message = HttpResponseStatus.valueOf(status).reasonPhrase();
		String type = null;
		try {
			JsonNode error = this.mapper.readTree(bytes).path("error");
			if (error.isObject()) {
				message = error.path("message").asString(message);
				type = error.path("type").asString(null);
			}
		}
		catch (JacksonException ex) {
			// Not JSON: keep the status line's reason.
		}
		return UpstreamException.status(this.name, status, UpstreamFailures.redact(type, apiKey), null,
				UpstreamFailures.redact(message, apiKey), RetryAfter.parse(retryAfter));
	}

}
