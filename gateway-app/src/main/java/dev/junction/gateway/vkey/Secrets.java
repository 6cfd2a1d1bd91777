package dev.junction.gateway.vkey;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;

import org.jspecify.annotations.Nullable;

/**
 * Virtual key secrets: {@code jk-<id>.<256 random bits>}. The id finds the key; the
 * secret is checked against its stored SHA-256 in constant time.
 */
public final class Secrets {

	/** How every virtual key secret begins. */
	public static final String PREFIX = "jk-";

	private static final SecureRandom random = new SecureRandom();

	private Secrets() {
	}

	/** A new key id: {@code vk_} and 16 hex digits. */
	public static String newId() {
		byte[] bytes = new byte[8];
		random.nextBytes(bytes);
		return "vk_" + HexFormat.of().formatHex(bytes);
	}

	/** A new secret for the key {@code id}. */
	public static String newSecret(String id) {
		byte[] bytes = new byte[32];
		random.nextBytes(bytes);
		return PREFIX + id + "." + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
	}

	/** The id a secret names, or null if it is not shaped like a virtual key. */
	public static @Nullable String idOf(String secret) {
		if (!secret.startsWith(PREFIX)) {
			return null;
		}
		int dot = secret.indexOf('.', PREFIX.length());
		if (dot < 0 || dot == PREFIX.length() || dot - PREFIX.length() > 40) {
			return null;
		}
		return secret.substring(PREFIX.length(), dot);
	}

	public static String hash(String secret) {
		return HexFormat.of().formatHex(sha256(secret));
	}

	/**
	 * Whether {@code secret} hashes to {@code expectedHash}, compared in constant time.
	 */
	public static boolean verify(String secret, String expectedHash) {
		byte[] expected;
		try {
			expected = HexFormat.of().parseHex(expectedHash);
		}
		catch (IllegalArgumentException ex) {
			return false;
		}
		return MessageDigest.isEqual(sha256(secret), expected);
	}

	private static byte[] sha256(String secret) {
		try {
			return MessageDigest.getInstance("SHA-256").digest(secret.getBytes(StandardCharsets.UTF_8));
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
