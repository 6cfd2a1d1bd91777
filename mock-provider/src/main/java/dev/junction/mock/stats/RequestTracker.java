package dev.junction.mock.stats;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Follows one request to its {@link Outcome}: the first outcome reported wins, later ones
 * are ignored.
 */
public final class RequestTracker {

	private final MockStats stats;

	private final Route route;

	private final AtomicBoolean finished = new AtomicBoolean();

	RequestTracker(MockStats stats, Route route) {
		this.stats = stats;
		this.route = route;
	}

	/** Records how the request ended, unless an outcome was already recorded. */
	public void finish(Outcome outcome) {
		if (finished.compareAndSet(false, true)) {
			stats.record(route, outcome);
		}
	}

	/** Records that the answer is a stream; pair with {@link #streamEnded()}. */
	public void streamStarted() {
		stats.streamStarted(route);
	}

	/** Records that the stream is no longer written, however it ended. */
	public void streamEnded() {
		stats.streamEnded();
	}

}
