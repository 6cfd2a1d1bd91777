package dev.junction.messaging.system;

import reactor.core.publisher.Mono;

import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Component;

/** The database answers a trivial query. */
@Component
class DatabaseHealthCheck implements HealthCheck {

	private final DatabaseClient client;

	DatabaseHealthCheck(DatabaseClient client) {
		this.client = client;
	}

	@Override
	public String name() {
		return "database";
	}

	@Override
	public Mono<Result> check() {
		return Mono.defer(() -> {
			long start = System.nanoTime();
			return this.client.sql("SELECT 1")
				.map((row) -> 1)
				.first()
				.map((one) -> Result.up((System.nanoTime() - start) / 1_000_000));
		});
	}

}
