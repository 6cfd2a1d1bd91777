package dev.junction.calculator.auth;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.interfaces.RSAPrivateKey;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.Date;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

class JwtVerifierTests {

	private static final String SECRET = "a-test-secret-that-is-at-least-32-bytes-long";

	private static final String ISSUER = "https://issuer.junction.test";

	@TempDir
	Path keys;

	@Test
	void verifiesRs256TokensAgainstAPublicKey() throws Exception {
		KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
		generator.initialize(2048);
		KeyPair pair = generator.generateKeyPair();
		Path publicKey = this.keys.resolve("public.pem");
		Files.writeString(publicKey,
				"-----BEGIN PUBLIC KEY-----\n" + Base64.getMimeEncoder().encodeToString(pair.getPublic().getEncoded())
						+ "\n-----END PUBLIC KEY-----\n");
		JwtVerifier verifier = new JwtVerifier(
				new AuthProperties.Jwt(null, "file:" + publicKey, ISSUER, "calculator", Duration.ofSeconds(5), 100),
				Clock.systemUTC());
		SignedJWT jwt = new SignedJWT(new JWSHeader(JWSAlgorithm.RS256),
				new JWTClaimsSet.Builder().issuer(ISSUER)
					.audience("calculator")
					.expirationTime(Date.from(Instant.now().plusSeconds(60)))
					.build());
		jwt.sign(new RSASSASigner((RSAPrivateKey) pair.getPrivate()));
		assertThat(verifier.verify("Bearer " + jwt.serialize())).isNull();
		SignedJWT wrongAudience = new SignedJWT(new JWSHeader(JWSAlgorithm.RS256),
				new JWTClaimsSet.Builder().issuer(ISSUER)
					.audience("someone-else")
					.expirationTime(Date.from(Instant.now().plusSeconds(60)))
					.build());
		wrongAudience.sign(new RSASSASigner((RSAPrivateKey) pair.getPrivate()));
		assertThat(verifier.verify("Bearer " + wrongAudience.serialize())).isEqualTo(JwtVerifier.Rejection.CLAIMS);
	}

	@Test
	void refusesARememberedTokenOnceItExpires() throws Exception {
		Instant expiry = Instant.now().plusSeconds(60);
		String token = TestTokens.hs256(SECRET, ISSUER, expiry);
		MutableClock clock = new MutableClock(Instant.now());
		JwtVerifier verifier = new JwtVerifier(
				new AuthProperties.Jwt(SECRET, null, ISSUER, null, Duration.ofSeconds(5), 100), clock);
		assertThat(verifier.verify("Bearer " + token)).isNull();
		clock.now = expiry.plusSeconds(6);
		assertThat(verifier.verify("Bearer " + token)).isEqualTo(JwtVerifier.Rejection.EXPIRED);
	}

	@Test
	void treatsANonBearerAuthorizationAsMissing() throws Exception {
		assertThat(new JwtVerifier(new AuthProperties.Jwt(SECRET, null, ISSUER, null, Duration.ZERO, 10),
				Clock.systemUTC())
			.verify("Basic dXNlcjpwYXNz")).isEqualTo(JwtVerifier.Rejection.MISSING);
	}

	@Test
	void failsFastOnAShortSecretOrMissingIssuer() {
		assertThatIllegalStateException()
			.isThrownBy(() -> new JwtVerifier(new AuthProperties.Jwt("short", null, ISSUER, null, Duration.ZERO, 10),
					Clock.systemUTC()))
			.withMessageContaining("junction.calculator.auth.jwt.secret");
		assertThatIllegalStateException()
			.isThrownBy(() -> new JwtVerifier(new AuthProperties.Jwt(SECRET, null, null, null, Duration.ZERO, 10),
					Clock.systemUTC()))
			.withMessageContaining("junction.calculator.auth.jwt.issuer");
		assertThatIllegalStateException()
			.isThrownBy(() -> new JwtVerifier(new AuthProperties.Jwt(null, null, ISSUER, null, Duration.ZERO, 10),
					Clock.systemUTC()))
			.withMessageContaining("exactly one of");
	}

	static final class MutableClock extends Clock {

		Instant now;

		MutableClock(Instant now) {
			this.now = now;
		}

		@Override
		public ZoneOffset getZone() {
			return ZoneOffset.UTC;
		}

		@Override
		public Clock withZone(java.time.ZoneId zone) {
			return this;
		}

		@Override
		public Instant instant() {
			return this.now;
		}

	}

}
