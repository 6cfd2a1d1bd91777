package dev.junction.gateway.auth;

import reactor.core.publisher.Mono;

/** Keys issued at run time, looked up in their store. */
public interface KeyLookup {

	/** Whether {@code key} is shaped like a key of this store. */
	boolean claims(String key);

	/** The client identity of a valid, active key; empty for any other. */
	Mono<String> authenticate(String key);

}
