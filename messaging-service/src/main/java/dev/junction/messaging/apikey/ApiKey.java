package dev.junction.messaging.apikey;

import java.time.Instant;
import java.util.Set;
import java.util.UUID;

/**
 * A stored API key; the key itself is never stored, only its SHA-256.
 *
 * @param id key id
 * @param name human-readable name
 * @param keyHash hex SHA-256 of the key
 * @param keyPrefix first characters of the key, to recognise it
 * @param scopes what the key may do
 * @param instanceIds instances the key is restricted to (empty: all)
 * @param createdAt creation time
 * @param expiresAt time from which the key no longer works, null if never
 * @param revokedAt revocation time, null while active
 */
public record ApiKey(UUID id, String name, String keyHash, String keyPrefix, Set<Scope> scopes, Set<UUID> instanceIds,
		Instant createdAt, Instant expiresAt, Instant revokedAt) {

	/** Whether the key has not been revoked. */
	public boolean active() {
		return this.revokedAt == null;
	}

	/** Whether the key has expired at {@code now}. */
	public boolean expired(Instant now) {
		return this.expiresAt != null && !now.isBefore(this.expiresAt);
	}

	/** The caller this key authenticates. */
	public Caller toCaller() {
		return new Caller(this.id, this.name, this.scopes, this.instanceIds, this.expiresAt, this.keyHash);
	}

}
