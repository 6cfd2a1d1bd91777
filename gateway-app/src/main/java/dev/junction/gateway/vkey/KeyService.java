package dev.junction.gateway.vkey;

import java.time.Clock;
import java.time.Instant;

import dev.junction.gateway.auth.ClientIdentity;
import dev.junction.gateway.auth.KeyLookup;
import dev.junction.gateway.error.InvalidRequestException;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

/**
 * Authenticates virtual keys through a {@link KeyCache}, checking the secret against the
 * key's hash and its expiry against the clock on every request. A change made here is
 * applied to this instance's cache at once, and reaches the others through the database's
 * notifications.
 */
public final class KeyService implements KeyLookup {

	/** How a virtual key's client identity begins. */
	private static final String IDENTITY_PREFIX = ClientIdentity.ofKey("vk_");

	private final KeyStore store;

	private final Clock clock;

	private final KeyCache cache;

	private final BudgetLeases budgets;

	private final SpendBuffer spend;

	public KeyService(KeyStore store, KeyCache cache, BudgetLeases budgets, SpendBuffer spend, Clock clock) {
		this.store = store;
		this.cache = cache;
		this.budgets = budgets;
		this.spend = spend;
		this.clock = clock;
	}

	public KeyStore store() {
		return this.store;
	}

	/** Budget reservations, and the budgets' state with this instance's part written. */
	public BudgetLeases budgets() {
		return this.budgets;
	}

	/** Spend recorded behind the requests, and read with this instance's part written. */
	public SpendBuffer spend() {
		return this.spend;
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
		return this.cache.get(id)
			.filter((key) -> Secrets.verify(secret, key.secretHash()) && key.activeAt(now()))
			.map((key) -> ClientIdentity.ofKey(key.id()));
	}

	/**
	 * The virtual key id in a client identity, or null when the client is not a virtual
	 * key.
	 */
	public static @Nullable String idOf(String client) {
		return client.startsWith(IDENTITY_PREFIX) ? client.substring(IDENTITY_PREFIX.length() - 3) : null;
	}

	/** The key {@code id} as it is now. */
	public Mono<VirtualKey> current(String id) {
		return this.cache.get(id);
	}

	/**
	 * The key {@code id} if it is active and may call {@code model} (as the client named
	 * it); otherwise the client's 401, or 403 naming the models it may use.
	 */
	public Mono<VirtualKey> admit(String id, String model) {
		return current(id).switchIfEmpty(Mono.error(InvalidRequestException::unauthorized)).flatMap((key) -> {
			if (!key.activeAt(now())) {
				return Mono.error(InvalidRequestException.unauthorized());
			}
			if (!key.allows(model)) {
				return Mono.error(InvalidRequestException.forbidden("This key may not use the model '" + model
						+ "'; it may use " + String.join(", ", key.models()) + "."));
			}
			return Mono.just(key);
		});
	}

	/** Forgets what this instance read of a key that was created or changed here. */
	public void changed(String id) {
		this.cache.invalidate(id);
	}

}
