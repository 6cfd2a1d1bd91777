package dev.junction.gateway.vkey;

import java.time.Instant;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * A key handed out at run time. Only a hash of its secret is kept.
 *
 * @param id the key's public id (also how metrics and logs name it)
 * @param secretHash SHA-256 of the secret, hex
 * @param name what the key is for
 * @param owner who it belongs to
 * @param models models or aliases it may call ({@code *} globs), empty for any
 * @param requestsPerMinute its own request limit, null for none
 * @param tokensPerMinute its own token limit, null for none
 * @param budget what it may spend, null for no budget
 * @param expiresAt when it stops working, null for never
 * @param revokedAt when it was revoked, null if it was not
 * @param createdAt when it was created
 */
public record VirtualKey(String id, String secretHash, String name, @Nullable String owner, List<String> models,
		@Nullable Long requestsPerMinute, @Nullable Long tokensPerMinute, @Nullable Budget budget,
		@Nullable Instant expiresAt, @Nullable Instant revokedAt, Instant createdAt) {

	/** Whether the key may be used at {@code now}. */
	public boolean activeAt(Instant now) {
		return this.revokedAt == null && (this.expiresAt == null || now.isBefore(this.expiresAt));
	}

	/**
	 * Whether the key may call {@code model} (a provider/model or an alias, as the client
	 * named it).
	 */
	public boolean allows(String model) {
		if (this.models.isEmpty()) {
			return true;
		}
		for (String pattern : this.models) {
			if (Globs.matches(pattern, model)) {
				return true;
			}
		}
		return false;
	}

	public VirtualKey withSecretHash(String hash) {
		return new VirtualKey(this.id, hash, this.name, this.owner, this.models, this.requestsPerMinute,
				this.tokensPerMinute, this.budget, this.expiresAt, this.revokedAt, this.createdAt);
	}

}
