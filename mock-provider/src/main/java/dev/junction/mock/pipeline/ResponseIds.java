package dev.junction.mock.pipeline;

import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Unique ids for answers and tool calls: a prefix, a per-process random part, and a
 * counter.
 */
public final class ResponseIds {

	private static final String PROCESS = Long.toString(ThreadLocalRandom.current().nextLong(1L << 40, 1L << 50), 36);

	private static final AtomicLong COUNTER = new AtomicLong();

	private ResponseIds() {
	}

	/** A new id starting with the prefix, e.g. {@code chatcmpl-} or {@code msg_}. */
	public static String next(String prefix) {
		return prefix + "mock" + PROCESS + Long.toString(COUNTER.incrementAndGet(), 36);
	}

}
