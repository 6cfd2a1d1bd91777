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

	private final @Nullable Duration retryAfter;

	private UpstreamException(String provider, Kind kind, int upstreamStatus, @Nullable String upstreamType,
			@Nullable String upstreamCode, @Nullable Duration retryAfter, String message, @Nullable Throwable cause) {
		super(message, cause);
		this.provider = provider;
		this.kind = kind;
		this.upstreamStatus = upstreamStatus;
		this.upstreamType = upstreamType;
		this.upstreamCode = upstreamCode;
		this.retryAfter = retryAfter;
	}

	/**
	 * The upstream answered {@code status} with an error {@code message}. A refusal of the
	 * gateway's own key (401, 403) gets a message of the gateway's: the upstream's may quote
	 * part of the key, and is no use to the client.
	 */
	public static UpstreamException status(String provider, int status, @Nullable String type, @Nullable String code,
			String message, @Nullable Duration retryAfter) {
		if (status == 401 || status == 403) {
			return new UpstreamException(provider, Kind.STATUS, status, null, "provider_credentials_refused",
					retryAfter, "Provider '" + provider + "' refused the gateway's credentials (" + status
							+ "). This is not a problem with your request or your key.",
					null);
		}
		return new UpstreamException(provider, Kind.STATUS, status, type, code, retryAfter,
				"Provider '" + provider + "' returned " + status + ": " + message, null);
	}

	public static UpstreamException timeout(String provider, Duration timeout) {
		return new UpstreamException(provider, Kind.TIMEOUT, 0, null, null, null,
				"Provider '" + provider + "' did not answer within " + timeout.toMillis() + " ms.", null);
	}

	public static UpstreamException connection(String provider, String detail, @Nullable Throwable cause) {
		return new UpstreamException(provider, Kind.CONNECTION, 0, null, null, null,
				"Provider '" + provider + "' could not be reached: " + detail, cause);
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
				// The provider refused the gateway's own credentials: not the client's fault.
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
			case STATUS -> (this.upstreamCode != null) ? this.upstreamCode : "upstream_" + this.upstreamStatus;
		};
	}

	@Override
	public @Nullable Duration retryAfter() {
		return this.retryAfter;
	}

}
