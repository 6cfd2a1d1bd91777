package dev.junction.gateway.error;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

/**
 * A failure the gateway reports to its client, in whatever protocol the client speaks.
 * The client's request is wrong, an upstream provider failed, a local limiter refused the
 * request, or the gateway itself failed. Raised on the request path, so no stack trace is
 * filled in.
 */
public abstract sealed class GatewayException extends RuntimeException
		permits InvalidRequestException, UpstreamException, DeniedException, InternalGatewayException {

	protected GatewayException(String message, @Nullable Throwable cause) {
		super(message, cause, false, false);
	}

	/** The HTTP status this failure is reported with. */
	public abstract int status();

	/** The OpenAI error {@code type}. */
	public abstract String type();

	/** The OpenAI error {@code code}, if any. */
	public @Nullable String code() {
		return null;
	}

	/** The request parameter at fault, if any. */
	public @Nullable String param() {
		return null;
	}

	/** How long the client should wait before retrying, if that is known. */
	public @Nullable Duration retryAfter() {
		return null;
	}

}
