package dev.junction.messaging.common;

import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Time-ordered UUIDs (version 7, RFC 9562) that also increase strictly within one
 * millisecond in this process, so rows created here sort in creation order.
 * <p>
 * Lock-free: the millisecond and a 12-bit sequence ({@code rand_a}) advance together by
 * compare-and-set, and the remaining 62 bits come from {@link ThreadLocalRandom}, so no
 * thread waits for another nor reads the operating system's random device. Ids identify
 * rows, they grant nothing: every access is checked against the caller's key.
 */
public final class Ids {

	private static final long RAND_B_MASK = (1L << 62) - 1;

	/** The last millisecond and sequence handed out: {@code millis << 12 | sequence}. */
	private static final AtomicLong last = new AtomicLong();

	private Ids() {
	}

	/** A new time-ordered UUID. */
	public static UUID next() {
		ThreadLocalRandom random = ThreadLocalRandom.current();
		// A new millisecond starts its sequence at a random point in the lower half,
		// leaving
		// at least 2048 ids of headroom before the sequence carries into the next
		// millisecond.
		long fresh = (System.currentTimeMillis() << 12) | random.nextInt(1 << 11);
		long stamp = last.updateAndGet((previous) -> ((fresh >>> 12) > (previous >>> 12)) ? fresh : previous + 1);
		long msb = ((stamp >>> 12) << 16) | (0x7L << 12) | (stamp & 0xFFF);
		long lsb = (0b10L << 62) | (random.nextLong() & RAND_B_MASK);
		return new UUID(msb, lsb);
	}

}
