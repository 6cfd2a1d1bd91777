package dev.junction.gateway.error;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

/**
 * The {@code Retry-After} header, read from upstreams and written to clients, in whole
 * seconds.
 */
public final class RetryAfter {

	private RetryAfter() {
	}

	/**
	 * A delay in seconds ({@code "2"}, {@code "0.5"}); null when absent or not a number.
	 */
	public static @Nullable Duration parse(@Nullable String header) {
		if (header == null || header.isBlank()) {
			return null;
		}
		try {
			return Duration.ofMillis((long) (Double.parseDouble(header.trim()) * 1000));
		}
		catch (NumberFormatException ex) {
			return null;
		}
	}

	/** The header value for a delay: whole seconds, rounded up, at least 1. */
	public static String format(Duration delay) {
		return Long.toString(Math.max(1, (delay.toMillis() + 999) / 1000));
	}

}
