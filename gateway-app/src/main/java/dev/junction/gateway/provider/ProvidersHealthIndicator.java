package dev.junction.gateway.provider;

import reactor.core.publisher.Mono;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.ReactiveHealthIndicator;
import org.springframework.boot.health.contributor.Status;

/**
 * Actuator's {@code providers} health component: {@code UP} with every upstream key in
 * rotation, {@code DEGRADED} with any out, details per provider (see
 * {@link ProviderHealth}). {@code DEGRADED} maps to HTTP 200: every gateway instance
 * holds the same keys, and a load balancer gains nothing by dropping it.
 */
public final class ProvidersHealthIndicator implements ReactiveHealthIndicator {

	/** Some keys are out of rotation. */
	public static final Status DEGRADED = new Status("DEGRADED");

	private final ProviderRegistry providers;

	public ProvidersHealthIndicator(ProviderRegistry providers) {
		this.providers = providers;
	}

	@Override
	public Mono<Health> health() {
		return Mono.fromSupplier(() -> {
			ProviderHealth health = ProviderHealth.of(this.providers);
			return Health.status(ProviderHealth.UP.equals(health.status()) ? Status.UP : DEGRADED)
				.withDetail("providers", health.status())
				.withDetail("keys", health.keys())
				.build();
		});
	}

}
