package dev.junction.gateway.auth;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.jspecify.annotations.Nullable;

/**
 * The configured gateway API keys. A key is identified by a short hash of itself, so that
 * limits and logs can name a client without holding its secret.
 */
public final class GatewayKeys {

	private static final String BEARER = "Bearer ";

	private final Map<String, String> ids;

	private final Map<String, String> adminIds;

	private final Map<String, KeyActivity> activity;

	public GatewayKeys(List<String> keys, List<String> adminKeys) {
		this.ids = keys.stream().distinct().collect(Collectors.toUnmodifiableMap((key) -> key, GatewayKeys::idOf));
		this.adminIds = adminKeys.stream()
			.distinct()
			.collect(Collectors.toUnmodifiableMap((key) -> key, GatewayKeys::idOf));
		this.activity = Stream.concat(this.ids.values().stream(), this.adminIds.values().stream())
			.distinct()
			.collect(Collectors.toUnmodifiableMap((id) -> id, (id) -> new KeyActivity()));
	}

	/**
	 * What the configured key with client id {@code id} did since start, or null if
	 * {@code id} is no configured key.
	 */
	public @Nullable KeyActivity activity(String id) {
		return this.activity.get(id);
	}

	/** Whether requests need a key. */
	public boolean enabled() {
		return !this.ids.isEmpty() || !this.adminIds.isEmpty();
	}

	/**
	 * The client id for an {@code Authorization} header value, or null if it carries no
	 * valid key.
	 */
	public @Nullable String authenticate(@Nullable String authorization) {
		String key = bearer(authorization);
		if (key == null) {
			return null;
		}
		String id = this.ids.get(key);
		return (id != null) ? id : this.adminIds.get(key);
	}

	/**
	 * Whether {@code id} is a configured key's client id: null if it is none, else
	 * whether it is an admin key.
	 */
	public @Nullable Boolean configured(String id) {
		if (this.adminIds.containsValue(id)) {
			return true;
		}
		return this.ids.containsValue(id) ? false : null;
	}

	/** Whether any admin key is configured. */
	public boolean hasAdminKeys() {
		return !this.adminIds.isEmpty();
	}

	/** Whether an {@code Authorization} header value carries an admin key. */
	public boolean isAdmin(@Nullable String authorization) {
		String key = bearer(authorization);
		return key != null && this.adminIds.containsKey(key);
	}

	/** The key in an {@code Authorization: Bearer} header value, or null. */
	static @Nullable String bearer(@Nullable String authorization) {
		if (authorization == null || !authorization.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
			return null;
		}
		return authorization.substring(BEARER.length()).trim();
	}

	static String idOf(String key) {
		try {
			byte[] digest = MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
			return ClientIdentity.KEY_PREFIX + HexFormat.of().formatHex(digest, 0, 6);
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
