package dev.junction.gateway.calculator;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How the gateway reaches calculator-service over gRPC, on Spring gRPC's channel
 * {@value #CHANNEL}: {@code spring.grpc.client.channel.calculator.*} set explicitly wins
 * over what these properties make of it.
 *
 * @param address the target: {@code static://host:port}, or any grpc-java target such as
 * {@code dns:///host:port}
 * @param deadline the longest one calculation may take
 * @param healthDeadline the longest a health check may take
 * @param healthCacheTtl how long a health check's answer is reused by
 * {@code system.health}
 * @param jwtToken a bearer token sent as {@code authorization} metadata on every call, if
 * set
 * @param tls transport security; plaintext unless enabled
 * @param keepAliveTime how often the channel pings calculator-service while calls are in
 * flight (at least the server's permitted ping interval, 5 minutes by default in
 * grpc-java), 0 for never
 * @param keepAliveTimeout how long a ping may go unanswered before the connection counts
 * as dead
 */
@ConfigurationProperties(CalculatorProperties.PREFIX)
public record CalculatorProperties(@DefaultValue("static://127.0.0.1:50051") String address,
		@DefaultValue("2s") Duration deadline, @DefaultValue("300ms") Duration healthDeadline,
		@DefaultValue("1s") Duration healthCacheTtl, @Nullable String jwtToken, @DefaultValue Tls tls,
		@DefaultValue("5m") Duration keepAliveTime, @DefaultValue("20s") Duration keepAliveTimeout) {

	/** Prefix of these properties. */
	public static final String PREFIX = "junction.gateway.calculator";

	/** Name of the Spring gRPC channel to calculator-service. */
	public static final String CHANNEL = "calculator";

	/**
	 * TLS to calculator-service, with a client certificate for mTLS when one is set.
	 *
	 * @param enabled whether to use TLS
	 * @param ca PEM file of the CA that signed the server's certificate; the JDK's trust
	 * store if unset
	 * @param certificate PEM file of the client certificate chain, for mTLS
	 * @param privateKey PEM file of the client certificate's PKCS#8 private key, for mTLS
	 * @param authority the name to verify the server's certificate against, if not the
	 * target's host
	 */
	public record Tls(@DefaultValue("false") boolean enabled, @Nullable String ca, @Nullable String certificate,
			@Nullable String privateKey, @Nullable String authority) {
	}

}
