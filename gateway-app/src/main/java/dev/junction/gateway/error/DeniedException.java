package dev.junction.gateway.error;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

/** A local limiter refused the request: which one, and when to come back. */
public final class DeniedException extends GatewayException {

	private final String limiter;

	private final int status;

	private final @Nullable Duration retryAfter;

	private DeniedException(String limiter, int status, String message, @Nullable Duration retryAfter) {
		super(message, null);
		this.limiter = limiter;
		this.status = status;
		this.retryAfter = retryAfter;
	}

	/** Too many requests for the client's budget: 429. */
	public static DeniedException rateLimited(String limiter, String message, @Nullable Duration retryAfter) {
		return new DeniedException(limiter, 429, message, retryAfter);
	}

	/** The gateway cannot take the request now (queue full, circuit open): 503. */
	public static DeniedException unavailable(String limiter, String message, @Nullable Duration retryAfter) {
		return new DeniedException(limiter, 503, message, retryAfter);
	}

	/** The limiter that refused. */
	public String limiter() {
		return this.limiter;
	}

	@Override
	public int status() {
		return this.status;
	}

	@Override
	public String type() {
		return (this.status == 429) ? "rate_limit_error" : "server_overloaded";
	}

	@Override
	public String code() {
		return this.limiter;
	}

	@Override
	public @Nullable Duration retryAfter() {
		return this.retryAfter;
	}

}
