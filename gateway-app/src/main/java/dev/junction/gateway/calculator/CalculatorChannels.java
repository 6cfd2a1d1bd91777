package dev.junction.gateway.calculator;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.grpc.ClientInterceptor;
import io.grpc.ConnectivityState;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;

import org.springframework.grpc.client.ChannelBuilderOptions;
import org.springframework.grpc.client.GrpcChannelBuilderCustomizer;
import org.springframework.grpc.client.interceptor.security.BearerTokenAuthenticationInterceptor;

/**
 * What the calculator channel adds to Spring gRPC's own settings of channel
 * {@value CalculatorProperties#CHANNEL}: a bearer token, keep-alive, never idle,
 * callbacks on the transport thread, and a connection kept up at all times.
 */
final class CalculatorChannels {

	/** grpc-java turns idle mode off for any idle timeout over 30 days. */
	private static final long IDLE_MODE_OFF_DAYS = 31;

	private static final Duration SHUTDOWN_GRACE_PERIOD = Duration.ofSeconds(5);

	private CalculatorChannels() {
	}

	static ChannelBuilderOptions options(CalculatorProperties properties) {
		List<ClientInterceptor> interceptors = (properties.jwtToken() != null && !properties.jwtToken().isBlank())
				? List.of(new BearerTokenAuthenticationInterceptor(properties.jwtToken().trim())) : List.of();
		return withCustomizer(ChannelBuilderOptions.defaults()
			.withInterceptors(interceptors)
			.withShutdownGracePeriod(SHUTDOWN_GRACE_PERIOD), properties);
	}

	private static <T extends ManagedChannelBuilder<T>> ChannelBuilderOptions withCustomizer(
			ChannelBuilderOptions options, CalculatorProperties properties) {
		GrpcChannelBuilderCustomizer<T> customizer = (target, builder) -> {
			String authority = properties.tls().authority();
			if (properties.tls().enabled() && authority != null && !authority.isBlank()) {
				builder.overrideAuthority(authority);
			}
			if (properties.keepAliveTime().isZero()) {
				// grpc-java turns keep-alive off for a time of 1000 days or more.
				builder.keepAliveTime(Long.MAX_VALUE, TimeUnit.NANOSECONDS);
			}
			else {
				builder.keepAliveTime(properties.keepAliveTime().toNanos(), TimeUnit.NANOSECONDS)
					.keepAliveTimeout(properties.keepAliveTimeout().toNanos(), TimeUnit.NANOSECONDS);
			}
			// Never idle: an idle channel drops its connection, and the next call pays
			// for a new one.
			builder.idleTimeout(IDLE_MODE_OFF_DAYS, TimeUnit.DAYS);
			// Callbacks complete Monos on the transport thread: no hop through an
			// executor.
			builder.directExecutor();
		};
		return options.withCustomizer(customizer);
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

}
