package dev.junction.mock.stats;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;

/**
 * Publishes the {@link MockStats} counters as meters; reading them costs nothing on the
 * request path.
 */
public final class MockStatsMetrics implements MeterBinder {

	/** Requests received, tagged by route. */
	public static final String REQUESTS = "junction.mock.requests";

	/** Requests ended, tagged by route and outcome. */
	public static final String RESPONSES = "junction.mock.responses";

	/** Requests answered with a stream, tagged by route. */
	public static final String STREAMS = "junction.mock.streams";

	/** Streams being written right now. */
	public static final String ACTIVE_STREAMS = "junction.mock.active.streams";

	private final MockStats stats;

	public MockStatsMetrics(MockStats stats) {
		this.stats = stats;
	}

	@Override
	public void bindTo(MeterRegistry registry) {
		for (Route route : Route.values()) {
			FunctionCounter.builder(REQUESTS, stats, (s) -> s.requests(route))
				.description("Requests received by the emulator")
				.baseUnit("requests")
				.tag("route", route.tag())
				.register(registry);
			FunctionCounter.builder(STREAMS, stats, (s) -> s.streams(route))
				.description("Requests the emulator answered with a stream")
				.baseUnit("streams")
				.tag("route", route.tag())
				.register(registry);
			for (Outcome outcome : Outcome.values()) {
				FunctionCounter.builder(RESPONSES, stats, (s) -> s.count(route, outcome))
					.description("Requests the emulator finished, by outcome")
					.baseUnit("responses")
					.tag("route", route.tag())
					.tag("outcome", outcome.tag())
					.register(registry);
			}
		}
		Gauge.builder(ACTIVE_STREAMS, stats, MockStats::activeStreams)
			.description("Streams the emulator is writing right now")
			.baseUnit("streams")
			.register(registry);
	}

}
