package dev.junction.messaging.common;

import java.security.SecureRandom;
import java.util.UUID;

/**
 * Time-ordered UUIDs (version 7, RFC 9562) that also increase strictly within one
 * millisecond in this process, so rows created here sort in creation order.
 */
public final class Ids {

	private static final SecureRandom RANDOM = new SecureRandom();

	private static final long RAND_B_MASK = (1L << 62) - 1;

	private static long lastMillis;

	private static long randA;

	private static long randB;

	private Ids() {
	}

	/** A new time-ordered UUID. */
	public static synchronized UUID next() {
		long now = System.currentTimeMillis();
		if (now > lastMillis) {
			lastMillis = now;
			randA = RANDOM.nextInt(1 << 11); // leave headroom for the counter
			randB = RANDOM.nextLong() & (RAND_B_MASK >>> 1);
		}
		else {
			randB = (randB + 1) & RAND_B_MASK;
			if (randB == 0) {
				randA++;
				if (randA > 0xFFF) {
					lastMillis++;
					randA = 0;
				}
			}
		}
		long msb = (lastMillis << 16) | (0x7L << 12) | randA;
		long lsb = (0b10L << 62) | randB;
		return new UUID(msb, lsb);
	}

}
