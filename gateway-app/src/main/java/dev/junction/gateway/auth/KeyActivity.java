package dev.junction.gateway.auth;

import java.time.Instant;
import java.util.concurrent.atomic.LongAdder;

import org.jspecify.annotations.Nullable;

/**
 * What one configured gateway key did since this gateway instance started: model calls,
 * tokens and the last call's time, in memory only. Counting takes no lock, and the last
 * access is written at most once a second, so busy keys do not contend on it.
 */
public final class KeyActivity {

	private static final long RESOLUTION_MILLIS = 1000;

	private final LongAdder requests = new LongAdder();

	private final LongAdder tokens = new LongAdder();

	private volatile long lastAccessMillis;

	/** Records one finished call that used {@code tokens} tokens. */
	public void record(long tokens, long nowMillis) {
		this.requests.increment();
		if (tokens > 0) {
			this.tokens.add(tokens);
		}
		if (nowMillis - this.lastAccessMillis >= RESOLUTION_MILLIS) {
			this.lastAccessMillis = nowMillis;
		}
	}

	public long requests() {
		return this.requests.sum();
	}

	public long tokens() {
		return this.tokens.sum();
	}

	/** The last call's time (to the second), or null if there was none. */
	public @Nullable Instant lastAccess() {
		long millis = this.lastAccessMillis;
		return (millis != 0) ? Instant.ofEpochMilli(millis) : null;
	}

}
