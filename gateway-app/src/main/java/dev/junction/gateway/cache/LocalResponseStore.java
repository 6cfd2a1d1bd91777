package dev.junction.gateway.cache;

import java.time.Duration;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.junction.gateway.provider.ChatResult;
import reactor.core.publisher.Mono;

/**
 * Cached answers in memory (Caffeine), evicted after the TTL or when the cache is full.
 */
public final class LocalResponseStore implements ResponseStore {

	private final Cache<String, ChatResult> cache;

	public LocalResponseStore(Duration ttl, long maxEntries) {
		this.cache = Caffeine.newBuilder().expireAfterWrite(ttl).maximumSize(maxEntries).build();
	}

	@Override
	public Mono<ChatResult> get(String key) {
		return Mono.justOrEmpty(this.cache.getIfPresent(key));
	}

	@Override
	public Mono<Void> put(String key, ChatResult result) {
		return Mono.fromRunnable(() -> this.cache.put(key, result));
	}

	@Override
	public Mono<Long> clear() {
		return Mono.fromSupplier(() -> {
			long entries = this.cache.asMap().size();
			this.cache.invalidateAll();
			return entries;
		});
	}

}
