package dev.junction.messaging.apikey;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;

import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/** Generating and hashing raw API keys. */
final class ApiKeys {

	private static final SecureRandom RANDOM = new SecureRandom();

	static final int PREFIX_LENGTH = 10;

	private ApiKeys() {
	}

	/**
	 * {@link #generate()} on a thread that may block: the system's secure random source
	 * may read the operating system's random device, which no event loop may wait for.
	 */
	static Mono<String> generateOffLoop() {
		return Mono.fromCallable(ApiKeys::generate).subscribeOn(Schedulers.boundedElastic());
	}

	/** A new random key: {@code jk_} and 43 URL-safe characters (256 bits). */
	static String generate() {
		byte[] bytes = new byte[32];
		RANDOM.nextBytes(bytes);
		return "jk_" + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
	}

	/** Hex SHA-256 of {@code key}. */
	static String hash(String key) {
		try {
			MessageDigest digest = MessageDigest.getInstance("SHA-256");
			return HexFormat.of().formatHex(digest.digest(key.getBytes(StandardCharsets.UTF_8)));
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException(ex);
		}
	}

	/** The part of {@code key} shown in listings. */
	static String prefix(String key) {
		return key.substring(0, Math.min(PREFIX_LENGTH, key.length()));
	}

}
