package dev.junction.gateway.error;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

/** A local limiter refused the request: which one, and when to come back. */
public final class DeniedException extends GatewayException {

	private final String limiter;

	private final int status;

	private final String type;

	private final String code;

	private final @Nullable Duration retryAfter;

	private DeniedException(String limiter, int status, String type, String code, String message,
			@Nullable Duration retryAfter) {
		super(message, null);
		this.limiter = limiter;
		this.status = status;
		this.type = type;
		this.code = code;
		this.retryAfter = retryAfter;
	}

	/** Too many requests for the client's budget: 429. */
	public static DeniedException rateLimited(String limiter, String message, @Nullable Duration retryAfter) {
		return new DeniedException(limiter, 429, "rate_limit_error", limiter, message, retryAfter);
	}

	/**
	 * The key's budget for the period is spent: 429 with code {@code budget_exceeded}.
	 */
	public static DeniedException overBudget(String message, @Nullable Duration retryAfter) {
		return new DeniedException("budget", 429, "insufficient_quota", "budget_exceeded", message, retryAfter);
	}

	/** The gateway cannot take the request now (queue full, circuit open): 503. */
	public static DeniedException unavailable(String limiter, String message, @Nullable Duration retryAfter) {
		return new DeniedException(limiter, 503, "server_overloaded", limiter, message, retryAfter);
	}

	/**
	 * No upstream key of the gateway can serve the request (the provider refused them, or
	 * none is configured for the model): 503, the gateway's fault, neither the client's
	 * nor overload.
	 */
	public static DeniedException noUsableKey(String message, @Nullable Duration retryAfter) {
		return new DeniedException("provider_keys", 503, "server_error", "no_usable_provider_key", message, retryAfter);
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
		return this.type;
	}

	@Override
	public String code() {
		return this.code;
	}

	@Override
	public @Nullable Duration retryAfter() {
		return this.retryAfter;
	}

}
