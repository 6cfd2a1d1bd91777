package dev.junction.gateway.cache;

import dev.junction.gateway.provider.ChatResult;
import reactor.core.publisher.Mono;

/**
 * Where cached answers live: this process's memory, or Redis to be shared by several
 * gateways.
 */
public interface ResponseStore {

	/** The cached answer, or empty. A store failure is a miss, never an error. */
	Mono<ChatResult> get(String key);

	/** Keeps an answer for the cache's TTL. A store failure is ignored. */
	Mono<Void> put(String key, ChatResult result);

	/**
	 * Removes every cached answer, of every gateway key; emits how many were removed.
	 * Fails if the store is unreachable.
	 */
	Mono<Long> clear();

}
