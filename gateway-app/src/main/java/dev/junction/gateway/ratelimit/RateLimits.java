package dev.junction.gateway.ratelimit;

import java.time.Duration;

/**
 * A client's budgets per window.
 *
 * @param requests requests per window, 0 for no limit
 * @param tokens tokens per window, 0 for no limit
 * @param window the refill period of both budgets
 * @param defaultReservation tokens reserved for a request without {@code max_tokens}
 * @param failOpen whether requests pass when the bucket store fails
 * @param property where the budgets are configured, named in start-up failures
 */
public record RateLimits(long requests, long tokens, Duration window, long defaultReservation, boolean failOpen,
		String property) {
}
