package dev.junction.mock.stats;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class MockStatsTests {

	@Test
	void recordsOnlyTheFirstOutcomeOfARequest() {
		MockStats stats = new MockStats();
		RequestTracker tracker = stats.track(Route.MESSAGES, null);

		tracker.finish(Outcome.TRUNCATED);
		tracker.finish(Outcome.CANCELLED);

		RouteStats messages = stats.snapshot().route(Route.MESSAGES);
		assertThat(messages.requests()).isEqualTo(1);
		assertThat(messages.truncated()).isEqualTo(1);
		assertThat(messages.cancelled()).isZero();
	}

	@Test
	void resetsTheSnapshotButNotTheMeters() {
		MockStats stats = new MockStats();
		SimpleMeterRegistry registry = new SimpleMeterRegistry();
		new MockStatsMetrics(stats).bindTo(registry);
		stats.track(Route.CHAT_COMPLETIONS, "abcd").finish(Outcome.OK);

		stats.reset();
		stats.track(Route.CHAT_COMPLETIONS, "wxyz").finish(Outcome.ERROR);

		StatsSnapshot snapshot = stats.snapshot();
		assertThat(snapshot.route(Route.CHAT_COMPLETIONS).requests()).isEqualTo(1);
		assertThat(snapshot.route(Route.CHAT_COMPLETIONS).ok()).isZero();
		assertThat(snapshot.keys()).containsOnlyKeys("wxyz");
		assertThat(registry.get(MockStatsMetrics.REQUESTS).tag("route", "chat_completions").functionCounter().count())
			.isEqualTo(2);
		assertThat(registry.get(MockStatsMetrics.RESPONSES)
			.tag("route", "chat_completions")
			.tag("outcome", "ok")
			.functionCounter()
			.count()).isEqualTo(1);
	}

	@Test
	void tracksActiveStreams() {
		MockStats stats = new MockStats();
		RequestTracker tracker = stats.track(Route.CHAT_COMPLETIONS, null);

		tracker.streamStarted();
		assertThat(stats.snapshot().activeStreams()).isEqualTo(1);
		tracker.streamEnded();

		assertThat(stats.snapshot().activeStreams()).isZero();
		assertThat(stats.snapshot().route(Route.CHAT_COMPLETIONS).streams()).isEqualTo(1);
	}

	@Test
	void boundsTheNumberOfKeySuffixesCounted() {
		MockStats stats = new MockStats();
		for (int i = 0; i < MockStats.MAX_KEYS + 10; i++) {
			stats.track(Route.MODELS, "k" + i);
		}

		assertThat(stats.snapshot().keys()).hasSize(MockStats.MAX_KEYS);
		assertThat(stats.snapshot().route(Route.MODELS).requests()).isEqualTo(MockStats.MAX_KEYS + 10);
	}

}
