package dev.junction.gateway.provider;

import java.io.IOException;
import java.net.ConnectException;
import java.time.Duration;
import java.util.concurrent.TimeoutException;

import dev.junction.gateway.error.UpstreamException;
import io.netty.channel.ChannelException;
import io.netty.handler.timeout.ReadTimeoutException;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.netty.http.client.PrematureCloseException;

/** Transport failures of an HTTP call to a provider, as gateway failures. */
public final class UpstreamFailures {

	private UpstreamFailures() {
	}

	/** A connection failure as an {@link UpstreamException}; anything else as it is. */
	public static Throwable translate(String provider, Throwable error) {
		if (error instanceof UpstreamException) {
			return error;
		}
		if (error instanceof ConnectException || error.getCause() instanceof ConnectException) {
			return UpstreamException.connection(provider, "connection refused", error);
		}
		if (error instanceof PrematureCloseException) {
			return UpstreamException.connection(provider, "the connection closed before the response completed", error);
		}
		if (error instanceof IOException || error instanceof ChannelException) {
			return UpstreamException.connection(provider, String.valueOf(error.getMessage()), error);
		}
		return error;
	}

	/**
	 * A streamed call with its timeouts: the first item within {@code timeout}; each
	 * later wait bounded by the call's read timeout ({@code responseTimeout} of its
	 * request, set to the same duration), kept on the connection's event loop rather than
	 * a timer per item. Either one fails as the provider's timeout.
	 */
	public static <T> Flux<T> timeouts(Flux<T> stream, String provider, Duration timeout) {
		return stream.timeout(Mono.delay(timeout))
			.onErrorMap((error) -> error instanceof TimeoutException || error instanceof ReadTimeoutException,
					(ex) -> UpstreamException.timeout(provider, timeout));
	}

	/** {@code text} with every occurrence of the key replaced. */
	public static @Nullable String redact(@Nullable String text, @Nullable String apiKey) {
		return (text != null && apiKey != null && !apiKey.isEmpty()) ? text.replace(apiKey, "[redacted]") : text;
	}

}
