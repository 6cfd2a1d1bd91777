package dev.junction.messaging.webhook;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.HexFormat;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/** The {@code X-Junction-Signature} of a delivery: {@code sha256=} and the hex HMAC-SHA256 of the body. */
public final class Signatures {

	/** Header carrying the signature. */
	public static final String HEADER = "X-Junction-Signature";

	private Signatures() {
	}

	/** The signature of {@code body} under {@code secret}. */
	public static String sign(String secret, byte[] body) {
		try {
			Mac mac = Mac.getInstance("HmacSHA256");
			mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
			return "sha256=" + HexFormat.of().formatHex(mac.doFinal(body));
		}
		catch (GeneralSecurityException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
