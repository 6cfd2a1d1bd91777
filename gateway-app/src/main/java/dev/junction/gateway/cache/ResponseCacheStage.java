package dev.junction.gateway.cache;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

import com.github.benmanes.caffeine.cache.AsyncCache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.junction.gateway.pipeline.Attempt;
import dev.junction.gateway.pipeline.ChatExchange;
import dev.junction.gateway.pipeline.ChatExchange.CacheStatus;
import dev.junction.gateway.pipeline.ChatMode;
import dev.junction.gateway.pipeline.ChatStage;
import dev.junction.gateway.provider.ChatOutput;
import dev.junction.gateway.provider.ChatRequest;
import dev.junction.gateway.provider.ChatResult;
import dev.junction.gateway.provider.NativeRequest;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * An exact-match cache of non-streamed completions, keyed on the entry's namespace (see
 * {@link CachePolicy}) and the normalised request (the requested model, messages and
 * every parameter that changes the answer, field order ignored), kept for a TTL in memory
 * or in Redis. Identical requests of one namespace in flight together on one gateway make
 * one upstream call (single flight), which runs to the end even if the client that
 * started it goes away; failures are not cached. {@code Cache-Control: no-cache} skips
 * the lookup and stores the fresh answer. Streams and sampled requests the policy refuses
 * are never cached. A hit carries the usage of the answer it repeats; stages that count
 * spent tokens check {@link ChatExchange#servedFromCache()}.
 */
public final class ResponseCacheStage implements ChatStage {

	/** Counter of cache lookups, tagged by result. */
	public static final String LOOKUPS = "junction.cache.lookups";

	/** Fields that do not change the answer. */
	private static final Set<String> IGNORED = Set.of("stream", "stream_options", "user", "metadata", "store");

	private final ResponseStore store;

	private final CachePolicy policy;

	/** Calls in flight by key (single flight); a call leaves when it completes. */
	private final AsyncCache<String, ChatResult> inFlight = Caffeine.newBuilder().executor(Runnable::run).buildAsync();

	private final ObjectMapper mapper;

	private final Counter hits;

	private final Counter misses;

	public ResponseCacheStage(ResponseStore store, CachePolicy policy, ObjectMapper mapper, MeterRegistry registry) {
		this.store = store;
		this.policy = policy;
		this.mapper = mapper;
		this.hits = lookups(registry, "hit");
		this.misses = lookups(registry, "miss");
	}

	@Override
	@SuppressWarnings("unchecked")
	public <T extends ChatOutput> Flux<T> apply(ChatExchange exchange, Attempt attempt, Next<T> next) {
		if (next.mode() != ChatMode.COMPLETE) {
			return next.apply(exchange, attempt);
		}
		// A complete call: T is ChatResult.
		return (Flux<T>) Flux.from(complete(exchange, attempt, (Next<ChatResult>) next));
	}

	private Mono<ChatResult> complete(ChatExchange exchange, Attempt attempt, Next<ChatResult> next) {
		return Mono.defer(() -> {
			if (!this.policy.cacheable(exchange)) {
				return Mono.fromDirect(next.apply(exchange, attempt));
			}
			String key = key(exchange, attempt.request());
			if (exchange.cacheBypass()) {
				return call(exchange, attempt, next, key);
			}
			return this.store.get(key)
				.map((cached) -> hit(exchange, cached))
				.switchIfEmpty(Mono.defer(() -> call(exchange, attempt, next, key)));
		});
	}

	/**
	 * One upstream call per key at a time on this gateway; later identical requests share
	 * it. A request that bypasses the cache makes its own call when one is running
	 * already.
	 */
	private Mono<ChatResult> call(ChatExchange exchange, Attempt attempt, Next<ChatResult> next, String key) {
		AtomicBoolean started = new AtomicBoolean();
		CompletableFuture<ChatResult> running = this.inFlight.get(key, (ignored, executor) -> {
			started.set(true);
			return upstream(exchange, attempt, next, key);
		});
		if (!started.get()) {
			if (!exchange.cacheBypass()) {
				return Mono.fromFuture(running, true).map((shared) -> hit(exchange, shared));
			}
			running = upstream(exchange, attempt, next, key);
		}
		else {
			CompletableFuture<ChatResult> mine = running;
			mine.whenComplete((result, error) -> this.inFlight.asMap().remove(key, mine));
		}
		exchange.cacheStatus(CacheStatus.MISS);
		this.misses.increment();
		return Mono.fromFuture(running, true);
	}

	/**
	 * The call upstream, stored when it succeeds; it runs to the end whoever is still
	 * waiting.
	 */
	private CompletableFuture<ChatResult> upstream(ChatExchange exchange, Attempt attempt, Next<ChatResult> next,
			String key) {
		return Mono.fromDirect(next.apply(exchange, attempt))
			.flatMap((result) -> this.store.put(key, result).thenReturn(result))
			.toFuture();
	}

	private ChatResult hit(ChatExchange exchange, ChatResult cached) {
		exchange.cacheStatus(CacheStatus.HIT);
		this.hits.increment();
		return cached;
	}

	/**
	 * SHA-256 of the entry's namespace and the canonical request (object fields sorted,
	 * answer-neutral fields dropped).
	 */
	String key(ChatExchange exchange, ChatRequest request) {
		ObjectNode entry = this.mapper.createObjectNode();
		this.policy.scope(exchange, entry.putObject("scope"));
		ObjectNode canonical = entry.putObject("request");
		ObjectNode body = request.body();
		List<String> names = new ArrayList<>(body.propertyNames());
		Collections.sort(names);
		for (String name : names) {
			if (!IGNORED.contains(name)) {
				canonical.set(name, sorted(body.get(name)));
			}
		}
		canonical.put("model", request.model());
		NativeRequest original = request.original();
		if (original != null) {
			ObjectNode sent = entry.putObject("original");
			sent.put("api", original.api().name());
			sent.set("body", sorted(original.body()));
			sent.set("headers", sorted(this.mapper.valueToTree(original.headers())));
		}
		try {
			byte[] digest = MessageDigest.getInstance("SHA-256")
				.digest(entry.toString().getBytes(StandardCharsets.UTF_8));
			return HexFormat.of().formatHex(digest);
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private JsonNode sorted(JsonNode node) {
		if (node.isObject()) {
			ObjectNode copy = this.mapper.createObjectNode();
			List<String> names = new ArrayList<>(node.propertyNames());
			Collections.sort(names);
			names.forEach((name) -> copy.set(name, sorted(node.get(name))));
			return copy;
		}
		if (node.isArray()) {
			ArrayNode copy = this.mapper.createArrayNode();
			node.forEach((element) -> copy.add(sorted(element)));
			return copy;
		}
		return node;
	}

	private static Counter lookups(MeterRegistry registry, String result) {
		return Counter.builder(LOOKUPS).description("Response cache lookups").tag("result", result).register(registry);
	}

}
