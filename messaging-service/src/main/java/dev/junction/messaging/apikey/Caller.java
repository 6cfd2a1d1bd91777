package dev.junction.messaging.apikey;

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
 */
public record Caller(UUID keyId, String name, Set<Scope> scopes, Set<UUID> instanceIds) {

	/** Exchange attribute holding the caller. */
	public static final String ATTRIBUTE = Caller.class.getName();

	/** Whether the key holds {@code scope} or a scope that includes it. */
	public boolean has(Scope scope) {
		return this.scopes.stream().anyMatch((held) -> held.includes(scope));
	}

	/** 403 unless the key holds {@code scope}. */
	public void require(Scope scope) {
		if (!has(scope)) {
			throw ApiException.forbidden("API key lacks the '" + scope.name().toLowerCase(Locale.ROOT) + "' scope");
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

	/** 403 when the key is limited to some instances (for actions that span all of them). */
	public void requireUnrestricted() {
		if (restricted()) {
			throw ApiException.forbidden("API key is restricted to specific instances");
		}
	}

}
