package dev.junction.messaging.system;

import dev.junction.database.WholeResults;
import reactor.core.publisher.Mono;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.ReactiveHealthIndicator;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Component;

/** The database answers a trivial query; without it the service is down. */
@Component("databaseHealthIndicator")
class DatabaseHealthIndicator implements ReactiveHealthIndicator {

	private final DatabaseClient client;

	DatabaseHealthIndicator(DatabaseClient client) {
		this.client = client;
	}

	@Override
	public Mono<Health> health() {
		return WholeResults.first(this.client.sql("SELECT 1").map((row) -> 1).all())
			.map((one) -> Health.up().build())
			.switchIfEmpty(Mono.fromSupplier(() -> Health.down().withDetail("error", "no answer").build()))
			.onErrorResume((ex) -> Mono.just(Health.down().withDetail("error", HealthController.describe(ex)).build()));
	}

}
