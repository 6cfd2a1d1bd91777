package dev.junction.messaging.web;

import org.springframework.http.HttpHeaders;

/**
 * 429: the named limiter has no token left for this key; retry after
 * {@link #retryAfterSeconds()}.
 */
public final class RateLimitedException extends ApiException {

	private final String limiter;

	private final long retryAfterSeconds;

	private RateLimitedException(String limiter, long limit, long retryAfterSeconds) {
		super(ProblemType.RATE_LIMITED, "Rate limit '" + limiter + "' of " + limit + " requests exceeded, retry in "
				+ retryAfterSeconds + " s");
		this.limiter = limiter;
		this.retryAfterSeconds = retryAfterSeconds;
	}

	/**
	 * The {@code limiter} allowing {@code limit} requests per period denied a request.
	 */
	public static RateLimitedException of(String limiter, long limit, long retryAfterSeconds) {
		return new RateLimitedException(limiter, limit, Math.max(1, retryAfterSeconds));
	}

	public String limiter() {
		return this.limiter;
	}

	public long retryAfterSeconds() {
		return this.retryAfterSeconds;
	}

	@Override
	public HttpHeaders getHeaders() {
		HttpHeaders headers = new HttpHeaders();
		headers.set(HttpHeaders.RETRY_AFTER, Long.toString(this.retryAfterSeconds));
		return headers;
	}

}
