package dev.junction.gateway.calculator;

import java.io.File;
import java.net.URI;
import java.util.concurrent.TimeUnit;

import javax.net.ssl.SSLException;

import io.grpc.ConnectivityState;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.MetadataUtils;
import io.netty.handler.ssl.SslContextBuilder;

/** Builds the channel to calculator-service from {@link CalculatorProperties}. */
final class CalculatorChannels {

	private static final String STATIC = "static://";

	/** grpc-java turns idle mode off for any idle timeout over 30 days. */
	private static final long IDLE_MODE_OFF_DAYS = 31;

	private CalculatorChannels() {
	}

	static ManagedChannel create(CalculatorProperties properties) {
		NettyChannelBuilder builder = builder(properties.address());
		CalculatorProperties.Tls tls = properties.tls();
		if (tls.enabled()) {
			builder.useTransportSecurity().sslContext(sslContext(tls));
			if (tls.authority() != null && !tls.authority().isBlank()) {
				builder.overrideAuthority(tls.authority());
			}
		}
		else {
			builder.usePlaintext();
		}
		if (properties.jwtToken() != null && !properties.jwtToken().isBlank()) {
			Metadata headers = new Metadata();
			headers.put(Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER),
					"Bearer " + properties.jwtToken().trim());
			builder.intercept(MetadataUtils.newAttachHeadersInterceptor(headers));
		}
		if (!properties.keepAliveTime().isZero()) {
			builder.keepAliveTime(properties.keepAliveTime().toNanos(), TimeUnit.NANOSECONDS)
				.keepAliveTimeout(properties.keepAliveTimeout().toNanos(), TimeUnit.NANOSECONDS);
		}
		// Never idle: an idle channel drops its connection, and the next call pays for a new one.
		builder.idleTimeout(IDLE_MODE_OFF_DAYS, TimeUnit.DAYS);
		// Callbacks complete Monos on the transport thread: no hop through an executor.
		return builder.directExecutor().build();
	}

	/**
	 * Connects {@code channel} now and again whenever it drops its connection (the server
	 * restarted or closed it), so that no call waits for a connection to be made.
	 */
	static void keepConnected(ManagedChannel channel) {
		ConnectivityState state = channel.getState(true);
		if (state != ConnectivityState.SHUTDOWN) {
			channel.notifyWhenStateChanged(state, () -> keepConnected(channel));
		}
	}

	/** {@code static://host:port} becomes an address; any other target goes to grpc-java as is. */
	static NettyChannelBuilder builder(String address) {
		if (address.startsWith(STATIC)) {
			URI uri = URI.create("tcp://" + address.substring(STATIC.length()));
			if (uri.getHost() == null || uri.getPort() < 0) {
				throw new IllegalStateException(CalculatorProperties.PREFIX + ".address must be static://host:port, not '"
						+ address + "'");
			}
			return NettyChannelBuilder.forAddress(uri.getHost(), uri.getPort());
		}
		return NettyChannelBuilder.forTarget(address);
	}

	private static io.netty.handler.ssl.SslContext sslContext(CalculatorProperties.Tls tls) {
		try {
			SslContextBuilder ssl = GrpcSslContexts.forClient();
			if (tls.ca() != null) {
				ssl.trustManager(new File(tls.ca()));
			}
			if (tls.certificate() != null || tls.privateKey() != null) {
				if (tls.certificate() == null || tls.privateKey() == null) {
					throw new IllegalStateException(CalculatorProperties.PREFIX
							+ ".tls.certificate and .tls.private-key must be set together");
				}
				ssl.keyManager(new File(tls.certificate()), new File(tls.privateKey()));
			}
			return ssl.build();
		}
		catch (SSLException | IllegalArgumentException ex) {
			throw new IllegalStateException("Cannot set up TLS from " + CalculatorProperties.PREFIX + ".tls.*: "
					+ ex.getMessage(), ex);
		}
	}

}
