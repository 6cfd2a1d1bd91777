package dev.junction.gateway.error;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

/**
 * An upstream provider failed. Transient failures (connection errors, timeouts, 429 and
 * 5xx) may succeed on retry or on another provider; other 4xx would fail anywhere.
 */
public final class UpstreamException extends GatewayException {

	/** How the upstream call failed. */
	public enum Kind {

		/** The upstream answered with an error status. */
		STATUS,

		/** No answer within the provider's timeout. */
		TIMEOUT,

		/** No connection, or the connection broke before a complete answer. */
		CONNECTION

	}

	private final String provider;

	private final Kind kind;

	private final int upstreamStatus;

	private final @Nullable String upstreamType;

	private final @Nullable String upstreamCode;

	private final @Nullable String upstreamParam;

	private final @Nullable Duration retryAfter;

	private UpstreamException(String provider, Kind kind, int upstreamStatus, @Nullable String upstreamType,
			@Nullable String upstreamCode, @Nullable String upstreamParam, @Nullable Duration retryAfter,
			String message, @Nullable Throwable cause) {
		super(message, cause);
		this.provider = provider;
		this.kind = kind;
		this.upstreamStatus = upstreamStatus;
		this.upstreamType = upstreamType;
		this.upstreamCode = upstreamCode;
		this.upstreamParam = upstreamParam;
		this.retryAfter = retryAfter;
	}

	/**
	 * The upstream answered {@code status} with an error {@code message}. A refusal of
	 * the gateway's own key (401, 403) gets a message of the gateway's: the upstream's
	 * may quote part of the key, and is no use to the client.
	 */
	public static UpstreamException status(String provider, int status, @Nullable String type, @Nullable String code,
			String message, @Nullable Duration retryAfter) {
		return status(provider, status, type, code, null, message, retryAfter);
	}

	/**
	 * {@code provider} answered something its API does not allow ({@code what}): a 502.
	 */
	public static UpstreamException invalidResponse(String provider, String what) {
		return status(provider, 502, null, "invalid_upstream_response", what, null);
	}

	/**
	 * The upstream answered {@code status} with an error about {@code param}. A client
	 * error the gateway passes on keeps the provider's message, param and code as sent; a
	 * refusal of the gateway's own key (401, 403) gets a message of the gateway's, since
	 * the upstream's may quote part of the key and is no use to the client; other
	 * failures say which provider failed.
	 */
	public static UpstreamException status(String provider, int status, @Nullable String type, @Nullable String code,
			@Nullable String param, String message, @Nullable Duration retryAfter) {
		if (status == 401 || status == 403) {
			return new UpstreamException(provider, Kind.STATUS, status, null, "provider_credentials_refused", null,
					retryAfter, "Provider '" + provider + "' refused the gateway's credentials (" + status
							+ "). This is not a problem with your request or your key.",
					null);
		}
		String text = isPassedOn(status) ? message : "Provider '" + provider + "' returned " + status + ": " + message;
		return new UpstreamException(provider, Kind.STATUS, status, type, code, param, retryAfter, text, null);
	}

	public static UpstreamException timeout(String provider, Duration timeout) {
		return new UpstreamException(provider, Kind.TIMEOUT, 0, null, null, null, null,
				"Provider '" + provider + "' did not answer within " + timeout.toMillis() + " ms.", null);
	}

	public static UpstreamException connection(String provider, String detail, @Nullable Throwable cause) {
		return new UpstreamException(provider, Kind.CONNECTION, 0, null, null, null, null,
				"Provider '" + provider + "' could not be reached: " + detail, cause);
	}

	/**
	 * Whether an upstream status reaches the client as sent: a client error, not about
	 * the gateway's credentials.
	 */
	private static boolean isPassedOn(int status) {
		return status >= 400 && status < 500 && status != 401 && status != 403;
	}

	public String provider() {
		return this.provider;
	}

	public Kind kind() {
		return this.kind;
	}

	/** The upstream's HTTP status, or 0 when it gave none. */
	public int upstreamStatus() {
		return this.upstreamStatus;
	}

	/** Whether the same request may succeed on retry or on another provider. */
	public boolean isTransient() {
		return this.kind != Kind.STATUS || this.upstreamStatus == 429 || this.upstreamStatus >= 500
				|| this.upstreamStatus == 408;
	}

	@Override
	public int status() {
		return switch (this.kind) {
			case TIMEOUT -> 504;
			case CONNECTION -> 502;
			case STATUS -> switch (this.upstreamStatus) {
				// The provider refused the gateway's own credentials: not the client's
				// fault.
				case 401, 403 -> 502;
				case 500, 501 -> 502;
				default -> (this.upstreamStatus >= 400 && this.upstreamStatus < 600) ? this.upstreamStatus : 502;
			};
		};
	}

	@Override
	public String type() {
		return switch (this.kind) {
			case TIMEOUT -> "timeout_error";
			case CONNECTION -> "upstream_error";
			case STATUS -> (this.upstreamStatus == 429) ? "rate_limit_error"
					: (this.upstreamStatus < 500 && this.upstreamStatus != 401 && this.upstreamStatus != 403
							&& this.upstreamType != null) ? this.upstreamType : "upstream_error";
		};
	}

	@Override
	public @Nullable String code() {
		return switch (this.kind) {
			case TIMEOUT -> "upstream_timeout";
			case CONNECTION -> "upstream_unavailable";
			case STATUS -> (this.upstreamCode != null || isPassedOn(this.upstreamStatus)) ? this.upstreamCode
					: "upstream_" + this.upstreamStatus;
		};
	}

	@Override
	public @Nullable String param() {
		return (this.kind == Kind.STATUS && isPassedOn(this.upstreamStatus)) ? this.upstreamParam : null;
	}

	@Override
	public @Nullable Duration retryAfter() {
		return this.retryAfter;
	}

}
