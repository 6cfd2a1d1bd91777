package dev.junction.mock.stats;

import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * Request counters per route, outcome and API key. Counters only grow, so that the
 * metrics built on them stay monotonic; {@link #reset()} moves the baseline that
 * {@link #snapshot()} subtracts.
 */
public final class MockStats {

	/**
	 * Distinct key suffixes counted; requests with further keys are not counted per key.
	 */
	static final int MAX_KEYS = 1024;

	private final Map<Route, Counters> routes = new EnumMap<>(Route.class);

	private final Map<String, LongAdder> keys = new ConcurrentHashMap<>();

	private final AtomicLong activeStreams = new AtomicLong();

	private volatile StatsSnapshot baseline;

	public MockStats() {
		for (Route route : Route.values()) {
			routes.put(route, new Counters());
		}
		this.baseline = new StatsSnapshot(Map.of(), Map.of(), 0);
	}

	/**
	 * Counts a request on a route, with the suffix of the key it presented (or null), and
	 * follows it.
	 */
	public RequestTracker track(Route route, String keySuffix) {
		routes.get(route).requests.increment();
		if (keySuffix != null) {
			LongAdder counter = keys.get(keySuffix);
			if (counter == null && keys.size() < MAX_KEYS) {
				counter = keys.computeIfAbsent(keySuffix, (suffix) -> new LongAdder());
			}
			if (counter != null) {
				counter.increment();
			}
		}
		return new RequestTracker(this, route);
	}

	/** The counts since start or the last {@link #reset()}. */
	public StatsSnapshot snapshot() {
		StatsSnapshot now = cumulative();
		StatsSnapshot base = baseline;
		Map<String, RouteStats> routeStats = new LinkedHashMap<>();
		now.routes()
			.forEach((name, stats) -> routeStats.put(name,
					stats.minus(base.routes().getOrDefault(name, RouteStats.ZERO))));
		Map<String, Long> keyCounts = new LinkedHashMap<>();
		now.keys().forEach((suffix, count) -> {
			long since = count - base.keys().getOrDefault(suffix, 0L);
			if (since > 0) {
				keyCounts.put(suffix, since);
			}
		});
		return new StatsSnapshot(routeStats, keyCounts, now.activeStreams());
	}

	/**
	 * Starts counting from zero again for {@link #snapshot()}; the metrics keep their
	 * totals.
	 */
	public synchronized void reset() {
		baseline = cumulative();
	}

	/** Requests received on a route since start. */
	public long requests(Route route) {
		return routes.get(route).requests.sum();
	}

	/** Streams answered on a route since start. */
	public long streams(Route route) {
		return routes.get(route).streams.sum();
	}

	/** Requests on a route that ended with an outcome, since start. */
	public long count(Route route, Outcome outcome) {
		return routes.get(route).outcomes[outcome.ordinal()].sum();
	}

	/** Streams being written right now. */
	public long activeStreams() {
		return activeStreams.get();
	}

	void record(Route route, Outcome outcome) {
		routes.get(route).outcomes[outcome.ordinal()].increment();
	}

	void streamStarted(Route route) {
		routes.get(route).streams.increment();
		activeStreams.incrementAndGet();
	}

	void streamEnded() {
		activeStreams.decrementAndGet();
	}

	private StatsSnapshot cumulative() {
		Map<String, RouteStats> routeStats = new LinkedHashMap<>();
		routes.forEach((route, counters) -> routeStats.put(route.tag(), counters.stats()));
		Map<String, Long> keyCounts = new LinkedHashMap<>();
		keys.forEach((suffix, counter) -> keyCounts.put(suffix, counter.sum()));
		return new StatsSnapshot(routeStats, keyCounts, activeStreams.get());
	}

	private static final class Counters {

		final LongAdder requests = new LongAdder();

		final LongAdder streams = new LongAdder();

		final LongAdder[] outcomes = new LongAdder[Outcome.values().length];

		Counters() {
			for (int i = 0; i < outcomes.length; i++) {
				outcomes[i] = new LongAdder();
			}
		}

		RouteStats stats() {
			return new RouteStats(requests.sum(), streams.sum(), outcomes[Outcome.OK.ordinal()].sum(),
					outcomes[Outcome.ERROR.ordinal()].sum(), outcomes[Outcome.CANCELLED.ordinal()].sum(),
					outcomes[Outcome.TRUNCATED.ordinal()].sum(), outcomes[Outcome.RESET.ordinal()].sum());
		}

	}

}
