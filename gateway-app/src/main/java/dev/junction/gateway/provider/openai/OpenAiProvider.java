package dev.junction.gateway.provider.openai;

import java.net.ConnectException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeoutException;

import dev.junction.gateway.config.GatewayProperties.ProviderType;
import dev.junction.gateway.error.RetryAfter;
import dev.junction.gateway.error.UpstreamException;
import dev.junction.gateway.provider.ChatChunk;
import dev.junction.gateway.provider.ChatProvider;
import dev.junction.gateway.provider.ChatResult;
import dev.junction.gateway.provider.ProviderRequest;
import dev.junction.gateway.provider.Usage;
import dev.junction.gateway.requestid.RequestId;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelOption;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponseStatus;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.netty.ByteBufFlux;
import reactor.netty.http.client.HttpClient;
import reactor.netty.http.client.HttpClientResponse;
import reactor.netty.http.client.PrematureCloseException;
import reactor.netty.resources.ConnectionProvider;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Any OpenAI-compatible API, passed through on Reactor Netty with pooled connections.
 * The client's JSON is forwarded with only {@code model} rewritten (and usage requested on
 * streams); the upstream's answer reaches the client byte for byte.
 */
public final class OpenAiProvider implements ChatProvider {

	private final String name;

	private final HttpClient client;

	private final Map<String, HttpClient> clients = new ConcurrentHashMap<>();

	private final String completionsUri;

	private final Duration timeout;

	private final List<String> models;

	private final ObjectMapper mapper;

	public OpenAiProvider(String name, String baseUrl, Duration timeout, Duration connectTimeout, int maxConnections,
			List<String> models, ObjectMapper mapper) {
		this.name = name;
		this.timeout = timeout;
		this.models = List.copyOf(models);
		this.mapper = mapper;
		this.completionsUri = baseUrl.replaceAll("/+$", "") + "/chat/completions";
		ConnectionProvider pool = ConnectionProvider.builder("provider-" + name)
			.maxConnections(maxConnections)
			.pendingAcquireMaxCount(-1)
			.maxIdleTime(Duration.ofSeconds(30))
			.evictInBackground(Duration.ofSeconds(30))
			.build();
		this.client = HttpClient.create(pool)
			.option(ChannelOption.CONNECT_TIMEOUT_MILLIS, Math.toIntExact(connectTimeout.toMillis()))
			.keepAlive(true)
			.compress(false);
	}

	@Override
	public String name() {
		return this.name;
	}

	@Override
	public ProviderType type() {
		return ProviderType.OPENAI;
	}

	@Override
	public List<String> models() {
		return this.models;
	}

	@Override
	public Mono<ChatResult> complete(ProviderRequest request) {
		ObjectNode body = request.chat().body();
		body.put("model", request.model());
		byte[] json = this.mapper.writeValueAsBytes(body);
		return post(request, json).responseSingle((response, content) -> content.asByteArray()
			.defaultIfEmpty(new byte[0])
			.map((bytes) -> toResult(response, bytes, request.apiKey())))
			.timeout(this.timeout, Mono.error(() -> UpstreamException.timeout(this.name, this.timeout)))
			.onErrorMap(this::translate);
	}

	@Override
	public Flux<ChatChunk> stream(ProviderRequest request) {
		ObjectNode body = request.chat().body();
		body.put("model", request.model());
		body.put("stream", true);
		JsonNode options = body.get("stream_options");
		((options instanceof ObjectNode object) ? object : body.putObject("stream_options")).put("include_usage", true);
		byte[] json = this.mapper.writeValueAsBytes(body);
		return post(request, json).response((response, content) -> {
			if (response.status().code() >= 400) {
				return content.aggregate().asByteArray().defaultIfEmpty(new byte[0])
					.flatMapMany((bytes) -> Mono.error(error(response, bytes, request.apiKey())));
			}
			return chunks(content, request.apiKey());
		})
			.timeout(Mono.delay(this.timeout), (chunk) -> Mono.delay(this.timeout))
			.onErrorMap(TimeoutException.class, (ex) -> UpstreamException.timeout(this.name, this.timeout))
			.onErrorMap(this::translate);
	}

	private HttpClient.ResponseReceiver<?> post(ProviderRequest request, byte[] json) {
		return clientFor(request.apiKey()).post()
			.uri(this.completionsUri)
			.send((outbound, body) -> {
				outbound.header(RequestId.HEADER, request.requestId());
				return body.send(Mono.fromSupplier(() -> Unpooled.wrappedBuffer(json)));
			});
	}

	/** A client with the headers for one key, configured once per key rather than per request. */
	private HttpClient clientFor(@Nullable String apiKey) {
		return this.clients.computeIfAbsent((apiKey != null) ? apiKey : "", (key) -> this.client.headers((headers) -> {
			headers.set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.APPLICATION_JSON);
			if (!key.isEmpty()) {
				headers.set(HttpHeaderNames.AUTHORIZATION, "Bearer " + key);
			}
		}));
	}

	/** Turns the SSE body into chunks, ending at {@code [DONE]}; a body that ends before it is a failure. */
	private Flux<ChatChunk> chunks(ByteBufFlux content, @Nullable String apiKey) {
		return Flux.defer(() -> {
			SseLineDecoder decoder = new SseLineDecoder();
			boolean[] done = { false };
			// Decode inside onNext: Reactor Netty releases each buffer once onNext returns, so
			// it must not wait in an operator's queue.
			return content.map((ByteBuf buffer) -> decoder.decode(buffer))
				.concatMapIterable((lines) -> lines)
				.takeWhile((data) -> {
					if ("[DONE]".equals(data)) {
						done[0] = true;
						return false;
					}
					return true;
				})
				.map((data) -> toChunk(data, apiKey))
				.concatWith(Mono.defer(() -> done[0] ? Mono.empty()
						: Mono.error(UpstreamException.connection(this.name,
								"the stream ended before [DONE]", null))));
		});
	}

	private ChatChunk toChunk(String data, @Nullable String apiKey) {
		if (!data.contains("\"usage\"") && !data.contains("\"error\"")) {
			return ChatChunk.of(data);
		}
		JsonNode chunk = readTree(data.getBytes(StandardCharsets.UTF_8));
		JsonNode error = chunk.get("error");
		if (error != null && error.isObject()) {
			throw UpstreamException.status(this.name, 500, redact(error.path("type").asString(null), apiKey),
					redact(error.path("code").asString(null), apiKey),
					redact(error.path("message").asString("error in stream"), apiKey), null);
		}
		JsonNode usage = chunk.get("usage");
		if (usage == null || !usage.isObject()) {
			return ChatChunk.of(data);
		}
		JsonNode choices = chunk.get("choices");
		boolean usageOnly = choices == null || !choices.isArray() || choices.isEmpty();
		return new ChatChunk(data, Usage.fromOpenAi(usage), usageOnly);
	}

	private ChatResult toResult(HttpClientResponse response, byte[] bytes, @Nullable String apiKey) {
		if (response.status().code() >= 400) {
			throw error(response, bytes, apiKey);
		}
		JsonNode tree = readTree(bytes);
		JsonNode choice = tree.path("choices").path(0);
		return new ChatResult(bytes, Usage.fromOpenAi(tree.get("usage")), choice.path("finish_reason").asString(null),
				tree.path("model").asString(null));
	}

	private JsonNode readTree(byte[] bytes) {
		try {
			return this.mapper.readTree(bytes);
		}
		catch (JacksonException ex) {
			throw UpstreamException.status(this.name, 502, null, "invalid_upstream_response",
					"the response is not valid JSON", null);
		}
	}

	/** The upstream's error, with the key it was sent cut out of whatever the upstream quotes. */
	private UpstreamException error(HttpClientResponse response, byte[] bytes, @Nullable String apiKey) {
		int status = response.status().code();
		String message = HttpResponseStatus.valueOf(status).reasonPhrase();
		String type = null;
		String code = null;
		try {
			JsonNode error = this.mapper.readTree(bytes).path("error");
			if (error.isObject()) {
				message = error.path("message").asString(message);
				type = error.path("type").asString(null);
				code = error.path("code").isNull() ? null : error.path("code").asString(null);
			}
			else if (error.isString()) {
				message = error.stringValue();
			}
		}
		catch (JacksonException ex) {
			// Not JSON: keep the status line's reason.
		}
		return UpstreamException.status(this.name, status, redact(type, apiKey), redact(code, apiKey),
				redact(message, apiKey), RetryAfter.parse(response.responseHeaders().get(HttpHeaderNames.RETRY_AFTER)));
	}

	/** {@code text} with every occurrence of the key replaced. */
	private static @Nullable String redact(@Nullable String text, @Nullable String apiKey) {
		return (text != null && apiKey != null && !apiKey.isEmpty()) ? text.replace(apiKey, "[redacted]") : text;
	}

	private Throwable translate(Throwable error) {
		if (error instanceof UpstreamException) {
			return error;
		}
		if (error instanceof ConnectException || error.getCause() instanceof ConnectException) {
			return UpstreamException.connection(this.name, "connection refused", error);
		}
		if (error instanceof PrematureCloseException) {
			return UpstreamException.connection(this.name, "the connection closed before the response completed",
					error);
		}
		if (error instanceof java.io.IOException || error instanceof io.netty.channel.ChannelException) {
			return UpstreamException.connection(this.name, String.valueOf(error.getMessage()), error);
		}
		return error;
	}


}
