package dev.junction.gateway.admission;

import java.time.Duration;

/**
 * How the bound on requests in progress follows the server's event loops. A fixed bound
 * is either low, and sheds requests that only wait for a slow upstream, or high, and lets
 * a gateway past its capacity take on more than its cores serve: the requests taken on
 * then wait for the cores with the new ones, outlive young collections and fill the old
 * generation, and the collector takes the time the requests needed. So while the loops
 * run later than the target, the bound comes down below the requests in progress, by a
 * fifth each step and never under the least; while they are on time it climbs back by a
 * twentieth each step, up to the most.
 */
final class AdaptiveBound {

	/** How often the bound moves. */
	static final Duration STEP = Duration.ofMillis(100);

	private final int least;

	private final int most;

	private final long targetNanos;

	AdaptiveBound(int least, int most, Duration target) {
		if (least < 1 || most < least) {
			throw new IllegalArgumentException("the least bound must be at least 1 and not above the most");
		}
		this.least = least;
		this.most = most;
		this.targetNanos = target.toNanos();
	}

	/**
	 * The bound after {@code bound} for one step in which {@code inFlight} requests were
	 * in progress and the loops ran {@code delayNanos} late.
	 */
	int next(int bound, int inFlight, long delayNanos) {
		if (delayNanos > this.targetNanos) {
			return Math.max(this.least, Math.min(bound, inFlight - inFlight / 5));
		}
		return (int) Math.min(this.most, (long) bound + Math.max(1, bound / 20));
	}

}
