package dev.junction.gateway.cache;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import dev.junction.gateway.provider.ChatResult;
import dev.junction.gateway.provider.ClientApi;
import dev.junction.gateway.provider.Usage;
import dev.junction.redis.RedisConnector;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.SetArgs;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Cached answers in Redis, shared by every gateway instance, expiring after the TTL. An
 * entry is a length-prefixed JSON header (usage, finish reason, model) followed by the
 * answer's bytes as the client receives them. Redis failures are misses: counted, logged,
 * never the client's problem.
 */
public final class RedisResponseStore implements ResponseStore {

	/** Counter of Redis failures of the response cache. */
	public static final String ERRORS = "junction.cache.store.errors";

	private static final Logger logger = LoggerFactory.getLogger(RedisResponseStore.class);

	private static final String PREFIX = "junction:cache:";

	private final RedisConnector redis;

	private final Duration ttl;

	private final ObjectMapper mapper;

	private final Counter errors;

	public RedisResponseStore(RedisConnector redis, Duration ttl, ObjectMapper mapper, MeterRegistry registry) {
		this.redis = redis;
		this.ttl = ttl;
		this.mapper = mapper;
		this.errors = Counter.builder(ERRORS).description("Response cache store failures").register(registry);
	}

	@Override
	public Mono<ChatResult> get(String key) {
		return Mono.fromFuture(() -> this.redis.call((connection) -> connection.async().get(PREFIX + key)))
			.map(this::decode)
			.onErrorResume((error) -> failed("read", error));
	}

	@Override
	public Mono<Void> put(String key, ChatResult result) {
		byte[] value = encode(result);
		return Mono.fromFuture(() -> this.redis
			.call((connection) -> connection.async().set(PREFIX + key, value, SetArgs.Builder.px(this.ttl.toMillis()))))
			.then()
			.onErrorResume((error) -> failed("write", error));
	}

	@Override
	public Mono<Long> clear() {
		return clearFrom(ScanCursor.INITIAL).doOnError((error) -> {
			this.errors.increment();
			logger.warn("Response cache clear failed: {}", error.getMessage());
		});
	}

	private Mono<Long> clearFrom(ScanCursor cursor) {
		return Mono
			.fromFuture(() -> this.redis.call(
					(connection) -> connection.async().scan(cursor, ScanArgs.Builder.matches(PREFIX + "*").limit(500))))
			.flatMap((page) -> {
				Mono<Long> removed = page.getKeys().isEmpty() ? Mono.just(0L) : Mono.fromFuture(() -> this.redis
					.call((connection) -> connection.async().unlink(page.getKeys().toArray(String[]::new))));
				return removed.flatMap(
						(count) -> page.isFinished() ? Mono.just(count) : clearFrom(page).map((more) -> count + more));
			});
	}

	private <T> Mono<T> failed(String operation, Throwable error) {
		this.errors.increment();
		logger.warn("Response cache {} failed: {}", operation, error.getMessage());
		return Mono.empty();
	}

	private byte[] encode(ChatResult result) {
		ObjectNode header = this.mapper.createObjectNode();
		header.put("prompt", result.usage().promptTokens());
		header.put("completion", result.usage().completionTokens());
		header.put("finish", result.finishReason());
		header.put("model", result.responseModel());
		header.put("api", result.api().name());
		byte[] meta = header.toString().getBytes(StandardCharsets.UTF_8);
		return ByteBuffer.allocate(4 + meta.length + result.body().length)
			.putInt(meta.length)
			.put(meta)
			.put(result.body())
			.array();
	}

	private ChatResult decode(byte[] value) {
		ByteBuffer buffer = ByteBuffer.wrap(value);
		byte[] meta = new byte[buffer.getInt()];
		buffer.get(meta);
		byte[] body = new byte[buffer.remaining()];
		buffer.get(body);
		JsonNode header = this.mapper.readTree(meta);
		return new ChatResult(body, new Usage(header.path("prompt").asLong(0), header.path("completion").asLong(0)),
				header.path("finish").asString(null), header.path("model").asString(null),
				ClientApi.valueOf(header.path("api").asString(ClientApi.CHAT_COMPLETIONS.name())));
	}

}
