package dev.junction.mock.auth;

import java.util.List;
import java.util.Set;

import org.springframework.http.HttpHeaders;

/**
 * The API keys the emulator accepts. A request presents its key as {@code x-api-key}
 * (Anthropic) or {@code Authorization: Bearer} (OpenAI); either header works on every
 * route.
 */
public final class ApiKeys {

	private static final String BEARER = "Bearer ";

	private final Set<String> accepted;

	public ApiKeys(List<String> accepted) {
		this.accepted = Set.copyOf(accepted);
	}

	/** The key a request presents, or null when it presents none. */
	public static String presented(HttpHeaders headers) {
		String key = headers.getFirst("x-api-key");
		if (key != null && !key.isBlank()) {
			return key.trim();
		}
		String authorization = headers.getFirst(HttpHeaders.AUTHORIZATION);
		if (authorization != null && authorization.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
			String token = authorization.substring(BEARER.length()).trim();
			return token.isEmpty() ? null : token;
		}
		return null;
	}

	/**
	 * The last four characters of a key, enough to tell keys apart without revealing
	 * them; null for null.
	 */
	public static String suffix(String key) {
		if (key == null) {
			return null;
		}
		return (key.length() <= 4) ? key : key.substring(key.length() - 4);
	}

	/** Whether a request presenting this key (null for none) is let in. */
	public boolean accepts(String key) {
		return accepted.isEmpty() || (key != null && accepted.contains(key));
	}

}
