package dev.junction.netty;

import java.time.Duration;

/**
 * Limits the server applies while it reads a request, set by each application from its
 * own configuration (a bean of this type; {@link #DEFAULTS} without one).
 *
 * @param readTimeout the longest wait for the next part of a request body that has not
 * fully arrived: the request is then answered 408 and the connection closed
 * @param lingerTime after an answer that closes the connection while the client is still
 * sending its body (a 413), the longest time the rest is read and discarded so that the
 * client sees the answer rather than a reset connection
 * @param lingerBytes the most bytes read and discarded that way
 */
public record HttpServerLimits(Duration readTimeout, Duration lingerTime, long lingerBytes) {

	/** 30 s between two reads, and up to 30 s or 64 MB of an unwanted body discarded. */
	public static final HttpServerLimits DEFAULTS = new HttpServerLimits(Duration.ofSeconds(30), Duration.ofSeconds(30),
			64L * 1024 * 1024);

	public HttpServerLimits {
		if (readTimeout.isNegative() || readTimeout.isZero()) {
			throw new IllegalArgumentException("the read timeout must be positive, not " + readTimeout);
		}
	}

	/** These limits with another read timeout. */
	public HttpServerLimits withReadTimeout(Duration timeout) {
		return new HttpServerLimits(timeout, this.lingerTime, this.lingerBytes);
	}

}
