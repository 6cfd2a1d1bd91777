package dev.junction.calculator.auth;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.KeyFactory;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.X509EncodedKeySpec;
import java.text.ParseException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.Set;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.source.ImmutableJWKSet;
import com.nimbusds.jose.jwk.source.ImmutableSecret;
import com.nimbusds.jose.proc.BadJOSEException;
import com.nimbusds.jose.proc.BadJWSException;
import com.nimbusds.jose.proc.JWSVerificationKeySelector;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.proc.BadJWTException;
import com.nimbusds.jwt.proc.DefaultJWTClaimsVerifier;
import com.nimbusds.jwt.proc.DefaultJWTProcessor;
import org.jspecify.annotations.Nullable;

import org.springframework.core.io.DefaultResourceLoader;
import org.springframework.core.io.Resource;
import org.springframework.util.StringUtils;

/**
 * Verifies bearer tokens: signature (HS256 or RS256), expiry, not-before, issuer and
 * audience. A verified token is remembered until it expires, so a client that reuses its
 * token pays for signature verification once.
 */
public final class JwtVerifier {

	private static final String BEARER = "bearer ";

	private final DefaultJWTProcessor<SecurityContext> processor = new DefaultJWTProcessor<>();

	private final Cache<String, Instant> verified;

	private final Duration clockSkew;

	private final Clock clock;

	JwtVerifier(AuthProperties.Jwt properties, Clock clock) {
		this.clock = clock;
		this.clockSkew = properties.clockSkew();
		this.processor.setJWSKeySelector(keySelector(properties));
		DefaultJWTClaimsVerifier<SecurityContext> claims = new DefaultJWTClaimsVerifier<>(properties.audience(),
				new JWTClaimsSet.Builder().issuer(requireIssuer(properties)).build(), Set.of("exp"));
		claims.setMaxClockSkew(Math.toIntExact(properties.clockSkew().toSeconds()));
		this.processor.setJWTClaimsSetVerifier(claims);
		this.verified = Caffeine.newBuilder()
			.maximumSize(properties.cacheSize())
			.expireAfterWrite(Duration.ofMinutes(5))
			.build();
	}

	/**
	 * Checks the value of an {@code authorization} header.
	 * @return {@code null} if the token is accepted, otherwise why it is not
	 */
	@Nullable Rejection verify(@Nullable String authorization) {
		if (authorization == null || !authorization.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
			return Rejection.MISSING;
		}
		String token = authorization.substring(BEARER.length()).trim();
		Instant now = this.clock.instant();
		Instant expiry = this.verified.getIfPresent(token);
		if (expiry != null) {
			if (now.isBefore(expiry.plus(this.clockSkew))) {
				return null;
			}
			this.verified.invalidate(token);
			return Rejection.EXPIRED;
		}
		try {
			Date exp = this.processor.process(token, null).getExpirationTime();
			this.verified.put(token, exp.toInstant());
			return null;
		}
		catch (ParseException ex) {
			return Rejection.MALFORMED;
		}
		catch (BadJWSException ex) {
			return Rejection.BAD_SIGNATURE;
		}
		catch (BadJWTException ex) {
			return (ex.getMessage() != null && ex.getMessage().startsWith("Expired")) ? Rejection.EXPIRED
					: Rejection.CLAIMS;
		}
		catch (BadJOSEException | JOSEException ex) {
			return Rejection.BAD_SIGNATURE;
		}
	}

	private static String requireIssuer(AuthProperties.Jwt properties) {
		if (!StringUtils.hasText(properties.issuer())) {
			throw new IllegalStateException(AuthProperties.PREFIX + ".jwt.issuer must be set in jwt mode");
		}
		return properties.issuer();
	}

	private static JWSVerificationKeySelector<SecurityContext> keySelector(AuthProperties.Jwt properties) {
		boolean hasSecret = StringUtils.hasText(properties.secret());
		boolean hasPublicKey = StringUtils.hasText(properties.publicKey());
		if (hasSecret == hasPublicKey) {
			throw new IllegalStateException("Set exactly one of " + AuthProperties.PREFIX + ".jwt.secret (HS256) or "
					+ AuthProperties.PREFIX + ".jwt.public-key (RS256) in jwt mode");
		}
		if (hasSecret) {
			byte[] secret = properties.secret().getBytes(StandardCharsets.UTF_8);
			if (secret.length < 32) {
				throw new IllegalStateException(
						AuthProperties.PREFIX + ".jwt.secret must be at least 32 bytes (256 bits) for HS256");
			}
			return new JWSVerificationKeySelector<>(JWSAlgorithm.HS256, new ImmutableSecret<>(secret));
		}
		RSAKey key = new RSAKey.Builder(readRsaPublicKey(properties.publicKey())).build();
		return new JWSVerificationKeySelector<>(JWSAlgorithm.RS256, new ImmutableJWKSet<>(new JWKSet(key)));
	}

	private static RSAPublicKey readRsaPublicKey(String location) {
		Resource resource = new DefaultResourceLoader().getResource(location);
		try (InputStream in = resource.getInputStream()) {
			String pem = new String(in.readAllBytes(), StandardCharsets.US_ASCII)
				.replaceAll("-----(BEGIN|END) PUBLIC KEY-----", "")
				.replaceAll("\\s", "");
			return (RSAPublicKey) KeyFactory.getInstance("RSA")
				.generatePublic(new X509EncodedKeySpec(Base64.getDecoder().decode(pem)));
		}
		catch (IOException | java.security.GeneralSecurityException | IllegalArgumentException ex) {
			throw new IllegalStateException(AuthProperties.PREFIX + ".jwt.public-key: cannot read an RSA public key"
					+ " (PEM, BEGIN PUBLIC KEY) from " + location, ex);
		}
	}

	/**
	 * Why a call was refused: a fixed set, used as a metric tag and for the status
	 * message.
	 */
	enum Rejection {

		MISSING("missing", "missing bearer token in the authorization metadata"),

		MALFORMED("malformed", "bearer token is not a well-formed JWT"),

		BAD_SIGNATURE("bad_signature", "bearer token signature is not valid"),

		EXPIRED("expired", "bearer token has expired"),

		CLAIMS("claims", "bearer token issuer, audience or validity period is not accepted");

		final String tag;

		final String message;

		Rejection(String tag, String message) {
			this.tag = tag;
			this.message = message;
		}

	}

}
