package dev.junction.calculator.auth;

import java.time.Duration;
import java.util.Set;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How gRPC clients authenticate.
 *
 * @param mode none, mtls (client certificate signed by a trusted CA) or jwt (bearer
 * token)
 * @param openServices fully qualified gRPC services that need no bearer token in jwt mode
 * @param mtls certificates used in mtls mode
 * @param jwt token verification used in jwt mode
 */
@ConfigurationProperties(AuthProperties.PREFIX)
public record AuthProperties(@DefaultValue("none") Mode mode, @DefaultValue( {
		"grpc.health.v1.Health", "grpc.reflection.v1.ServerReflection",
		"grpc.reflection.v1alpha.ServerReflection" }) Set<String> openServices, @DefaultValue Mtls mtls,
		@DefaultValue Jwt jwt){

	/** Prefix of these properties. */
	public static final String PREFIX = "junction.calculator.auth";

	/** The ways a client can authenticate. */
	public enum Mode {

		/** Plain text, no credentials. */
		NONE,

		/** TLS with a client certificate signed by the trusted CA. */
		MTLS,

		/** A signed JWT in the {@code authorization: Bearer} metadata. */
		JWT

	}

	/**
	 * Certificates for mtls mode, as PEM resource locations ({@code file:},
	 * {@code classpath:}).
	 *
	 * @param certificate the server's certificate chain
	 * @param privateKey the server's private key
	 * @param trustedCa the CA certificates that client certificates must chain to
	 */
	public record Mtls(@Nullable String certificate, @Nullable String privateKey, @Nullable String trustedCa) {
	}

	/**
	 * Bearer token verification for jwt mode: exactly one of secret or public key.
	 *
	 * @param secret HS256 shared secret, at least 32 bytes
	 * @param publicKey RS256 public key as a PEM resource location
	 * @param issuer the required {@code iss} claim
	 * @param audience the required {@code aud} value, if any
	 * @param clockSkew tolerance when checking {@code exp} and {@code nbf}
	 * @param cacheSize how many verified tokens are remembered until they expire
	 */
	public record Jwt(@Nullable String secret, @Nullable String publicKey, @Nullable String issuer,
			@Nullable String audience, @DefaultValue("30s") Duration clockSkew, @DefaultValue("10000") long cacheSize) {
	}

}
