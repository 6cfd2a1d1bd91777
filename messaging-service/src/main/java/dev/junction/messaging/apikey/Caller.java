package dev.junction.messaging.apikey;

import java.time.Instant;
import java.util.Collection;
import java.util.Locale;
import java.util.Set;
import java.util.UUID;

import dev.junction.messaging.web.ApiException;

/**
 * The authenticated API key behind a request.
 *
 * @param keyId the key's id
 * @param name the key's name
 * @param scopes what the key may do
 * @param instanceIds instances the key is restricted to; empty means every instance
 * @param expiresAt when the key stops working, null if never
 * @param keyHash the key's SHA-256, to check it again later (for long-lived streams)
 */
public record Caller(UUID keyId, String name, Set<Scope> scopes, Set<UUID> instanceIds, Instant expiresAt,
		String keyHash) {

	/** Exchange attribute holding the caller. */
	public static final String ATTRIBUTE = Caller.class.getName();

	/** Whether the key holds {@code scope} or a scope that includes it. */
	public boolean has(Scope scope) {
		return this.scopes.stream().anyMatch((held) -> held.includes(scope));
	}

	/** 403 unless the key holds {@code scope}. */
	public void require(Scope scope) {
		if (!has(scope)) {
			throw ApiException.forbidden("API key lacks the '" + name(scope) + "' scope");
		}
	}

	/** Whether the key is limited to some instances. */
	public boolean restricted() {
		return !this.instanceIds.isEmpty();
	}

	/** Whether the key may touch {@code instanceId}. */
	public boolean canAccess(UUID instanceId) {
		return !restricted() || this.instanceIds.contains(instanceId);
	}

	/** 403 unless the key may touch {@code instanceId}. */
	public void requireInstance(UUID instanceId) {
		if (!canAccess(instanceId)) {
			throw ApiException.forbidden("API key is not allowed to access instance " + instanceId);
		}
	}

	/**
	 * 403 when the key is limited to some instances (for actions that span all of them).
	 */
	public void requireUnrestricted() {
		if (restricted()) {
			throw ApiException.forbidden("API key is restricted to specific instances");
		}
	}

	/**
	 * Whether this key may see and revoke {@code key}: an unrestricted key manages every
	 * key; a restricted one only keys limited to instances it holds itself.
	 */
	public boolean canManage(ApiKey key) {
		return !restricted() || (!key.instanceIds().isEmpty() && this.instanceIds.containsAll(key.instanceIds()));
	}

	/** 403 unless this key may see and revoke {@code key}. */
	public void requireManage(ApiKey key) {
		if (!canManage(key)) {
			throw ApiException.forbidden("API key " + key.id() + " is not limited to instances this API key holds");
		}
	}

	/**
	 * 403 unless this key may issue a key with {@code scopes}, limited to
	 * {@code instanceIds} (empty: all) and expiring at {@code expiresAt} (null: never): a
	 * key grants only what it holds, for no longer than it lives itself.
	 */
	public void requireCanIssue(Collection<Scope> scopes, Collection<UUID> instanceIds, Instant expiresAt) {
		for (Scope scope : scopes) {
			if (!has(scope)) {
				throw ApiException.forbidden("API key cannot grant the '" + name(scope) + "' scope, which it lacks");
			}
		}
		if (restricted()) {
			if (instanceIds.isEmpty()) {
				throw ApiException
					.forbidden("API key is restricted to specific instances and cannot issue a key for every instance");
			}
			for (UUID instanceId : instanceIds) {
				requireInstance(instanceId);
			}
		}
		if (this.expiresAt != null && (expiresAt == null || expiresAt.isAfter(this.expiresAt))) {
			throw ApiException.forbidden("API key expires at " + this.expiresAt
					+ " and cannot issue a key that outlives it: set expiresAt no later than that");
		}
	}

	/** Never shows the key's hash. */
	@Override
	public String toString() {
		return "Caller[keyId=" + this.keyId + ", name=" + this.name + ", scopes=" + this.scopes + ", instanceIds="
				+ this.instanceIds + ", expiresAt=" + this.expiresAt + "]";
	}

	private static String name(Scope scope) {
		return scope.name().toLowerCase(Locale.ROOT);
	}

}
