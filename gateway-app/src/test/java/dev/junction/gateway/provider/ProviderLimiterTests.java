package dev.junction.gateway.provider;

import java.time.Duration;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import reactor.core.Disposable;

import static org.assertj.core.api.Assertions.assertThat;

class ProviderLimiterTests {

	private final MeterRegistry registry = new SimpleMeterRegistry();

	private final ProviderLimiter limiter = new ProviderLimiter("p", 1, 2, Duration.ofSeconds(30), true);

	@Test
	void gaugesFollowCallsInFlightAndWaiting() {
		this.limiter.bindTo(this.registry);
		ProviderLimiter.Permit permit = this.limiter.acquire().block(Duration.ofSeconds(1));
		assertThat(gauge(ProviderLimiter.IN_FLIGHT)).isEqualTo(1.0);
		assertThat(gauge(ProviderLimiter.WAITING)).isEqualTo(0.0);

		Disposable waiter = this.limiter.acquire().subscribe();
		assertThat(gauge(ProviderLimiter.WAITING)).isEqualTo(1.0);
		waiter.dispose();
		assertThat(gauge(ProviderLimiter.WAITING)).isEqualTo(0.0);

		permit.release();
		assertThat(gauge(ProviderLimiter.IN_FLIGHT)).isEqualTo(0.0);
	}

	@Test
	void metersAreTaggedWithTheProvider() {
		this.limiter.bindTo(this.registry);
		assertThat(this.registry.get(ProviderLimiter.IN_FLIGHT).tag("provider", "p").gauge()).isNotNull();
		assertThat(this.registry.get(ProviderLimiter.WAITING).tag("provider", "p").gauge()).isNotNull();
		assertThat(this.registry.get(ProviderLimiter.QUEUE_WAIT).tag("provider", "p").timer()).isNotNull();
	}

	private double gauge(String name) {
		return this.registry.get(name).gauge().value();
	}

}
