package dev.junction.messaging.ratelimit;

import io.lettuce.core.api.StatefulRedisConnection;
import reactor.core.publisher.Mono;

import dev.junction.messaging.system.HealthCheck;

/** Redis answers PING (checked only when Redis is configured). */
class RedisHealthCheck implements HealthCheck {

	private final StatefulRedisConnection<String, byte[]> connection;

	RedisHealthCheck(StatefulRedisConnection<String, byte[]> connection) {
		this.connection = connection;
	}

	@Override
	public String name() {
		return "redis";
	}

	@Override
	public Mono<Result> check() {
		return Mono.defer(() -> {
			long start = System.nanoTime();
			return this.connection.reactive().ping().map((pong) -> Result.up((System.nanoTime() - start) / 1_000_000));
		});
	}

}
