package dev.junction.gateway.provider.openai;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.junction.gateway.error.RetryAfter;
import dev.junction.gateway.error.UpstreamException;
import dev.junction.gateway.provider.ChatChunk;
import dev.junction.gateway.provider.ChatProvider;
import dev.junction.gateway.provider.ChatRequest;
import dev.junction.gateway.provider.ChatResult;
import dev.junction.gateway.provider.ClientApi;
import dev.junction.gateway.provider.ClientBytes;
import dev.junction.gateway.provider.KeyedHttpClients;
import dev.junction.gateway.provider.PooledHttpClient;
import dev.junction.gateway.provider.ProviderRequest;
import dev.junction.gateway.provider.ProviderType;
import dev.junction.gateway.provider.StreamEnd;
import dev.junction.gateway.provider.UpstreamFailures;
import dev.junction.gateway.provider.Usage;
import dev.junction.gateway.requestid.RequestId;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponseStatus;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
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
 * Any OpenAI-compatible API, passed through on Reactor Netty with pooled connections. The
 * client's JSON is forwarded with only {@code model} rewritten (and usage requested on
 * streams); the upstream's answer reaches the client byte for byte. Embeddings, and
 * Responses when the upstream serves them, go the same way. The upstream's own model list
 * ({@code GET /models}) is fetched when first asked for and kept for a while.
 */
public final class OpenAiProvider implements ChatProvider {

	/** How long the upstream's model list is kept. */
	static final Duration MODELS_TTL = Duration.ofMinutes(5);

	/** How long a failure to fetch it is kept before the next attempt. */
	static final Duration MODELS_RETRY = Duration.ofSeconds(30);

	private static final Duration MODELS_TIMEOUT = Duration.ofSeconds(10);

	private static final Logger logger = LoggerFactory.getLogger(OpenAiProvider.class);

	private final String name;

	private final KeyedHttpClients clients;

	private final String completionsUri;

	private final String embeddingsUri;

	private final String responsesUri;

	private final boolean nativeResponses;

	private final Duration timeout;

	private final List<String> models;

	private final ObjectMapper mapper;

	private final Mono<List<String>> upstreamModels;

	/**
	 * @param name the provider's configured name
	 * @param baseUrl the upstream's base URL, {@code /v1} included
	 * @param timeout the longest a call may take; for streams, the longest wait for a
	 * chunk
	 * @param connectTimeout the longest a TCP connect may take
	 * @param maxConnections pooled connections
	 * @param models the configured models
	 * @param listingKey the key that lists the upstream's models, or null not to list
	 * them
	 * @param nativeResponses whether the upstream serves the Responses API
	 * ({@code /responses})
	 * @param mapper JSON
	 */
	public OpenAiProvider(String name, String baseUrl, Duration timeout, Duration connectTimeout, int maxConnections,
			List<String> models, @Nullable String listingKey, boolean nativeResponses, ObjectMapper mapper) {
		this.name = name;
		this.timeout = timeout;
		this.models = List.copyOf(models);
		this.mapper = mapper;
		String base = baseUrl.replaceAll("/+$", "");
		this.completionsUri = base + "/chat/completions";
		this.embeddingsUri = base + "/embeddings";
		this.responsesUri = base + "/responses";
		this.nativeResponses = nativeResponses;
		this.clients = new KeyedHttpClients(PooledHttpClient.create("provider-" + name, connectTimeout, maxConnections),
				(headers, key) -> headers.set(HttpHeaderNames.AUTHORIZATION, "Bearer " + key));
		this.upstreamModels = (listingKey != null) ? fetchModels(base + "/models", listingKey)
			.cache((list) -> MODELS_TTL, (error) -> MODELS_RETRY, () -> MODELS_RETRY) : Mono.just(List.of());
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
	public boolean takesCallerKeys() {
		return true;
	}

	@Override
	public List<String> models() {
		return this.models;
	}

	@Override
	public Mono<List<String>> availableModels() {
		return this.upstreamModels.map((upstream) -> {
			List<String> all = new ArrayList<>(this.models);
			upstream.stream().filter((model) -> !all.contains(model)).forEach(all::add);
			return all;
		}).onErrorReturn(this.models);
	}

	/**
	 * The ids the upstream lists at {@code GET /models}; a failure is logged once per
	 * attempt.
	 */
	private Mono<List<String>> fetchModels(String uri, String key) {
		return Mono.defer(() -> this.clients.forKey(key)
			.get()
			.uri(uri)
			.responseSingle((response, content) -> content.asByteArray().defaultIfEmpty(new byte[0]).map((bytes) -> {
				if (response.status().code() >= 400) {
					throw error(response, bytes, key);
				}
				List<String> ids = new ArrayList<>();
				for (JsonNode model : readTree(bytes).path("data")) {
					String id = model.path("id").asString(null);
					if (id != null && !id.isBlank()) {
						ids.add(id);
					}
				}
				return ids;
			}))
			.timeout(MODELS_TIMEOUT))
			.doOnError((error) -> logger.warn(
					"Provider '{}' did not list its models ({}): /v1/models shows the "
							+ "configured ones only, next attempt in {} s",
					this.name, error.toString(), MODELS_RETRY.toSeconds()));
	}

	@Override
	public boolean speaks(ClientApi api) {
		return api == ClientApi.EMBEDDINGS || (api == ClientApi.RESPONSES && this.nativeResponses);
	}

	@Override
	public Mono<ChatResult> complete(ProviderRequest request) {
		return switch (request.api()) {
			case EMBEDDINGS -> send(request, this.embeddingsUri, nativeBody(request, null), this::toEmbeddings);
			case RESPONSES -> send(request, this.responsesUri, nativeBody(request, false), this::toResponse);
			default -> send(request, this.completionsUri, chatBytes(request, false), this::toResult);
		};
	}

	@Override
	public Flux<ChatChunk> stream(ProviderRequest request) {
		boolean responses = request.api() == ClientApi.RESPONSES;
		byte[] json = responses ? this.mapper.writeValueAsBytes(nativeBody(request, true)) : chatBytes(request, true);
		Flux<ChatChunk> chunks = post(request, responses ? this.responsesUri : this.completionsUri, json, this.timeout)
			.response((response, content) -> {
				if (response.status().code() >= 400) {
					return content.aggregate()
						.asByteArray()
						.defaultIfEmpty(new byte[0])
						.flatMapMany((bytes) -> Mono.error(error(response, bytes, request.apiKey())));
				}
				return responses ? ResponsesEventStream.of(content, this.name, this.mapper, request.apiKey())
						: chunks(content, request.apiKey());
			});
		return UpstreamFailures.timeouts(chunks, this.name, this.timeout).onErrorMap(this::translate);
	}

	/**
	 * The chat completion request sent upstream, as {@link #body} has it: the client's
	 * own bytes with the provider's model put in, when that is all that differs; else the
	 * tree written anew.
	 */
	private byte[] chatBytes(ProviderRequest request, boolean stream) {
		ChatRequest chat = request.chat();
		byte[] json = chat.json();
		ClientBytes client = (json != null && (!stream || (chat.stream() && chat.includeUsage())))
				? ClientBytes.find(json, this.mapper.tokenStreamFactory()) : null;
		if (client != null) {
			return client.withModel(this.mapper.writeValueAsBytes(request.model()));
		}
		return this.mapper.writeValueAsBytes(body(request, stream));
	}

	/**
	 * The JSON sent upstream: the client's fields in their order, with the provider's
	 * model and, on streams, usage requested. A shallow copy: the client's request is
	 * never changed.
	 */
	private static ObjectNode body(ProviderRequest request, boolean stream) {
		ObjectNode client = request.chat().body();
		ObjectNode body = client.objectNode();
		body.setAll(client);
		body.put("model", request.model());
		if (stream) {
			body.put("stream", true);
			ObjectNode options = body.putObject("stream_options");
			if (client.get("stream_options") instanceof ObjectNode asked) {
				options.setAll(asked);
			}
			options.put("include_usage", true);
		}
		return body;
	}

	/**
	 * The client's JSON in its own API with the provider's model (and the stream flag,
	 * when given); a copy.
	 */
	private static ObjectNode nativeBody(ProviderRequest request, @Nullable Boolean stream) {
		ObjectNode client = request.original().body();
		ObjectNode body = client.objectNode();
		body.setAll(client);
		body.put("model", request.model());
		if (Boolean.TRUE.equals(stream)) {
			body.put("stream", true);
		}
		else if (stream != null && body.has("stream")) {
			body.put("stream", false);
		}
		return body;
	}

	/**
	 * One JSON call, its answer read by {@code reader} once the upstream's status says it
	 * succeeded.
	 */
	private Mono<ChatResult> send(ProviderRequest request, String uri, ObjectNode body, ResultReader reader) {
		return send(request, uri, this.mapper.writeValueAsBytes(body), reader);
	}

	private Mono<ChatResult> send(ProviderRequest request, String uri, byte[] json, ResultReader reader) {
		return post(request, uri, json, null)
			.responseSingle((response, content) -> content.asByteArray().defaultIfEmpty(new byte[0]).map((bytes) -> {
				if (response.status().code() >= 400) {
					throw error(response, bytes, request.apiKey());
				}
				return reader.read(bytes, readTree(bytes));
			}))
			.timeout(this.timeout, Mono.error(() -> UpstreamException.timeout(this.name, this.timeout)))
			.onErrorMap(this::translate);
	}

	private ChatResult toEmbeddings(byte[] bytes, JsonNode tree) {
		return new ChatResult(bytes, new Usage(tree.path("usage").path("prompt_tokens").asLong(0), 0), null,
				tree.path("model").asString(null), ClientApi.EMBEDDINGS);
	}

	private ChatResult toResponse(byte[] bytes, JsonNode tree) {
		return new ChatResult(bytes, Usage.fromResponses(tree.get("usage")), tree.path("status").asString(null),
				tree.path("model").asString(null), ClientApi.RESPONSES);
	}

	/**
	 * @param readTimeout the longest wait for each read of the answer, or null for no
	 * limit
	 */
	private HttpClient.ResponseReceiver<?> post(ProviderRequest request, String uri, byte[] json,
			@Nullable Duration readTimeout) {
		HttpClient client = this.clients.forRequest(request);
		return client.post().uri(uri).send((outbound, body) -> {
			if (readTimeout != null) {
				outbound.responseTimeout(readTimeout);
			}
			outbound.header(RequestId.HEADER, request.requestId());
			request.trace().forEach(outbound::header);
			return body.send(Mono.fromSupplier(() -> Unpooled.wrappedBuffer(json)));
		});
	}

	/**
	 * Turns the SSE body into chunks, ending at {@code [DONE]}; a body that ends before
	 * it is a failure.
	 */
	private Flux<ChatChunk> chunks(ByteBufFlux content, @Nullable String apiKey) {
		return Flux.defer(() -> {
			SseLineDecoder decoder = new SseLineDecoder();
			// Decode inside onNext: Reactor Netty releases each buffer once onNext
			// returns, so it must not wait in an operator's queue.
			Flux<String> data = content.map((ByteBuf buffer) -> decoder.decode(buffer))
				.concatMapIterable((lines) -> lines);
			return StreamEnd
				.upTo(data, "[DONE]"::equals, false,
						() -> UpstreamException.connection(this.name, "the stream ended before [DONE]", null))
				.map((line) -> toChunk(line, apiKey));
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

	private ChatResult toResult(byte[] bytes, JsonNode tree) {
		JsonNode choice = tree.path("choices").path(0);
		return new ChatResult(bytes, Usage.fromOpenAi(tree.get("usage")), choice.path("finish_reason").asString(null),
				tree.path("model").asString(null));
	}

	private JsonNode readTree(byte[] bytes) {
		try {
			return this.mapper.readTree(bytes);
		}
		catch (JacksonException ex) {
			throw UpstreamException.invalidResponse(this.name, "the response is not valid JSON");
		}
	}

	/**
	 * The upstream's error, with the key it was sent cut out of whatever the upstream
	 * quotes.
	 */
	private UpstreamException error(HttpClientResponse response, byte[] bytes, @Nullable String apiKey) {
		int status = response.status().code();
		String message = HttpResponseStatus.valueOf(status).reasonPhrase();
		String type = null;
		String code = null;
		String param = null;
		try {
			JsonNode error = this.mapper.readTree(bytes).path("error");
			if (error.isObject()) {
				message = error.path("message").asString(message);
				type = error.path("type").asString(null);
				code = error.path("code").isNull() ? null : error.path("code").asString(null);
				param = error.path("param").isNull() ? null : error.path("param").asString(null);
			}
			else if (error.isString()) {
				message = error.stringValue();
			}
		}
		catch (JacksonException ex) {
			// Not JSON: keep the status line's reason.
		}
		return UpstreamException.status(this.name, status, redact(type, apiKey), redact(code, apiKey),
				redact(param, apiKey), redact(message, apiKey),
				RetryAfter.parse(response.responseHeaders().get(HttpHeaderNames.RETRY_AFTER)));
	}

	private static @Nullable String redact(@Nullable String text, @Nullable String apiKey) {
		return UpstreamFailures.redact(text, apiKey);
	}

	private Throwable translate(Throwable error) {
		return UpstreamFailures.translate(this.name, error);
	}

	/** Reads a successful answer. */
	@FunctionalInterface
	private interface ResultReader {

		ChatResult read(byte[] bytes, JsonNode tree);

	}

}
