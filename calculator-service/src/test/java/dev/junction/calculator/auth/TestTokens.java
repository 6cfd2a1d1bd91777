package dev.junction.calculator.auth;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;

/**
 * HS256 tokens made at test time, as a client of a JWT-protected calculator would send
 * them.
 */
public final class TestTokens {

	private TestTokens() {
	}

	/**
	 * A token for subject {@code client-1} from {@code issuer}, signed with
	 * {@code secret}.
	 */
	public static String hs256(String secret, String issuer, Instant expiry) throws JOSEException {
		SignedJWT jwt = new SignedJWT(new JWSHeader(JWSAlgorithm.HS256),
				new JWTClaimsSet.Builder().subject("client-1")
					.issuer(issuer)
					.issueTime(Date.from(Instant.now().minus(Duration.ofMinutes(10))))
					.expirationTime(Date.from(expiry))
					.build());
		jwt.sign(new MACSigner(secret.getBytes(StandardCharsets.UTF_8)));
		return jwt.serialize();
	}

}
