package dev.junction.gateway.vkey;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

import com.github.benmanes.caffeine.cache.AsyncCache;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.cache.CaffeineCacheMetrics;
import reactor.core.publisher.Mono;

/**
 * Virtual keys by id in memory, so a request with a known key costs no database round
 * trip. The cache is used only while it is trusted to hear of every change: always when
 * this instance is the only one (H2), and on PostgreSQL only while
 * {@link KeyChangeListener} listens. Untrusted, every lookup reads the database and
 * nothing is kept. Ids the database does not know are kept apart in a smaller cache, so
 * made-up keys never push out real ones. Concurrent lookups of one id share one query.
 */
public final class KeyCache {

	/** Name of the cache in the {@code cache.*} metrics. */
	public static final String NAME = "virtual-keys";

	/** Longest a key stays cached however it is kept up to date. */
	private static final Duration TIME_TO_LIVE = Duration.ofMinutes(10);

	private final Function<String, Mono<VirtualKey>> database;

	private final AsyncCache<String, VirtualKey> keys;

	private final Cache<String, Boolean> unknown;

	/**
	 * Counts every invalidation, so a lookup that raced one does not remember an unknown
	 * id.
	 */
	private final AtomicLong changes = new AtomicLong();

	private volatile boolean trusted;

	/**
	 * @param database reads a key by id, empty when there is none
	 * @param maxKeys the most keys kept, and the most unknown ids
	 * @param trusted whether the cache may be used from the start (no other instance
	 * writes)
	 */
	public KeyCache(Function<String, Mono<VirtualKey>> database, long maxKeys, boolean trusted,
			MeterRegistry registry) {
		this.database = database;
		this.trusted = trusted;
		this.keys = CaffeineCacheMetrics.monitor(registry,
				Caffeine.newBuilder().maximumSize(maxKeys).expireAfterWrite(TIME_TO_LIVE).recordStats().buildAsync(),
				NAME);
		this.unknown = Caffeine.newBuilder().maximumSize(maxKeys).expireAfterWrite(TIME_TO_LIVE).build();
	}

	/** The key {@code id}, or empty when the database has none. */
	public Mono<VirtualKey> get(String id) {
		if (!this.trusted) {
			return this.database.apply(id);
		}
		if (this.unknown.getIfPresent(id) != null) {
			return Mono.empty();
		}
		long seen = this.changes.get();
		// The shared query is not cancelled with one of the requests waiting for it.
		return Mono.fromFuture(() -> this.keys.get(id, (key, executor) -> this.database.apply(key).toFuture()), true)
			.switchIfEmpty(Mono.fromRunnable(() -> {
				if (this.trusted && this.changes.get() == seen) {
					this.unknown.put(id, Boolean.TRUE);
				}
			}));
	}

	/** Forgets the key {@code id}, also a lookup of it under way. */
	public void invalidate(String id) {
		this.changes.incrementAndGet();
		this.keys.synchronous().invalidate(id);
		this.unknown.invalidate(id);
	}

	/**
	 * Forgets every key and uses the cache from now on: every change from here on is
	 * heard.
	 */
	void trust() {
		invalidateAll();
		this.trusted = true;
	}

	/**
	 * Forgets every key and reads the database for each lookup until {@link #trust()}.
	 */
	void distrust() {
		this.trusted = false;
		invalidateAll();
	}

	boolean trusted() {
		return this.trusted;
	}

	private void invalidateAll() {
		this.changes.incrementAndGet();
		this.keys.synchronous().invalidateAll();
		this.unknown.invalidateAll();
	}

}
