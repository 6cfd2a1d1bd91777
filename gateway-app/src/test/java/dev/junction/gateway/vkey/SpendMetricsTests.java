package dev.junction.gateway.vkey;

import dev.junction.gateway.provider.Usage;
import dev.junction.gateway.routing.Target;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class SpendMetricsTests {

	private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

	@Test
	void keysBeyondTheLimitShareOneSeries() {
		SpendMetrics metrics = new SpendMetrics(this.registry, 2);
		Target target = new Target("emu", "gpt-4o-mini");
		for (String key : new String[] { "vk_a", "vk_b", "vk_c", "vk_d", "vk_a" }) {
			metrics.record(key, target, new Usage(10, 5), 1_000_000_000L);
		}
		assertThat(this.registry.get(SpendMetrics.KEY_COST).tag("key", "vk_a").counter().count()).isEqualTo(2.0);
		assertThat(this.registry.get(SpendMetrics.KEY_COST).tag("key", "vk_b").counter().count()).isEqualTo(1.0);
		assertThat(this.registry.get(SpendMetrics.KEY_COST).tag("key", "other").counter().count()).isEqualTo(2.0);
		assertThat(this.registry.find(SpendMetrics.KEY_COST).counters()).hasSize(3);
		assertThat(this.registry.get(SpendMetrics.COST).tag("model", "gpt-4o-mini").counter().count()).isEqualTo(5.0);
		assertThat(this.registry.get(SpendMetrics.TOKENS).tag("type", "input").counter().count()).isEqualTo(50.0);
	}

	@Test
	void modelsBeyondTheLimitShareOneSeries() {
		SpendMetrics metrics = new SpendMetrics(this.registry, 2);
		for (int i = 0; i < SpendMetrics.MAX_MODELS + 50; i++) {
			metrics.record(null, new Target("emu", "made-up-" + i), new Usage(1, 1), 1_000L);
		}
		assertThat(this.registry.find(SpendMetrics.COST).counters()).hasSize(SpendMetrics.MAX_MODELS + 1);
		assertThat(this.registry.get(SpendMetrics.COST).tag("model", "other").counter().count()).isPositive();
		assertThat(this.registry.get(SpendMetrics.TOKENS).tag("model", "other").tag("type", "output").counter().count())
			.isEqualTo(50.0);
	}

}
