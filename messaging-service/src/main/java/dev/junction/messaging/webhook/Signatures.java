package dev.junction.messaging.webhook;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.HexFormat;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The {@code X-Junction-Signature} of a delivery: {@code t=<unix seconds>,v1=<hex>},
 * where {@code v1} is the HMAC-SHA256, under the subscription's secret, of the timestamp,
 * a dot and the body. The signature covers the time it was made, so a receiver that
 * refuses old timestamps cannot be sent a captured delivery again later.
 */
public final class Signatures {

	/** Header carrying the signature. */
	public static final String HEADER = "X-Junction-Signature";

	private Signatures() {
	}

	/**
	 * The header value for {@code body} signed under {@code secret} at {@code timestamp}
	 * (Unix seconds).
	 */
	public static String header(String secret, long timestamp, byte[] body) {
		return "t=" + timestamp + ",v1=" + v1(secret, timestamp, body);
	}

	/** The hex HMAC-SHA256 of {@code "<timestamp>.<body>"} under {@code secret}. */
	static String v1(String secret, long timestamp, byte[] body) {
		try {
			Mac mac = Mac.getInstance("HmacSHA256");
			mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
			mac.update((timestamp + ".").getBytes(StandardCharsets.US_ASCII));
			return HexFormat.of().formatHex(mac.doFinal(body));
		}
		catch (GeneralSecurityException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
