package dev.junction.gateway.vkey;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.junction.gateway.auth.ClientIdentity;
import dev.junction.gateway.auth.KeyLookup;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

/**
 * Authenticates virtual keys against the store on every request, so a key revoked or expired
 * on one instance is refused by every instance sharing the database from the next request on.
 * The key just read is kept briefly for the pipeline stage of the same request.
 */
public final class KeyService implements KeyLookup {

	/** How a virtual key's client identity begins. */
	private static final String IDENTITY_PREFIX = ClientIdentity.ofKey("vk_");

	private final KeyStore store;

	private final Clock clock;

	private final Cache<String, VirtualKey> recent = Caffeine.newBuilder()
		.expireAfterWrite(Duration.ofSeconds(30))
		.maximumSize(10_000)
		.build();

	public KeyService(KeyStore store, Clock clock) {
		this.store = store;
		this.clock = clock;
	}

	public KeyStore store() {
		return this.store;
	}

	public Instant now() {
		return this.clock.instant();
	}

	@Override
	public boolean claims(String key) {
		return Secrets.idOf(key) != null;
	}

	@Override
	public Mono<String> authenticate(String secret) {
		String id = Secrets.idOf(secret);
		if (id == null) {
			return Mono.empty();
		}
		return this.store.find(id)
			.filter((key) -> Secrets.verify(secret, key.secretHash()) && key.activeAt(now()))
			.doOnNext((key) -> this.recent.put(key.id(), key))
			.map((key) -> ClientIdentity.ofKey(key.id()));
	}

	/** The virtual key id in a client identity, or null when the client is not a virtual key. */
	public static @Nullable String idOf(String client) {
		return client.startsWith(IDENTITY_PREFIX) ? client.substring(IDENTITY_PREFIX.length() - 3) : null;
	}

	/** The key as this request's authentication read it, or as the store has it now. */
	public Mono<VirtualKey> current(String id) {
		VirtualKey key = this.recent.getIfPresent(id);
		return (key != null) ? Mono.just(key) : this.store.find(id);
	}

	/** Forgets what this instance read of a key that changed. */
	public void changed(String id) {
		this.recent.invalidate(id);
	}

}
