package dev.junction.messaging.ratelimit;

import java.time.Duration;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.codec.StringCodec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.junction.messaging.system.HealthCheck;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Chooses where buckets live: Redis when {@code junction.redis.url} is set, memory otherwise. */
@Configuration(proxyBeanMethods = false)
class RateLimitConfiguration {

	private static final Logger logger = LoggerFactory.getLogger(RateLimitConfiguration.class);

	@Bean
	RateLimiter rateLimiter(RateLimitProperties properties, ObjectProvider<StatefulRedisConnection<String, byte[]>> redis) {
		StatefulRedisConnection<String, byte[]> connection = redis.getIfAvailable();
		if (connection == null) {
			return new LocalRateLimiter(max(properties.period().multipliedBy(2), Duration.ofMinutes(1)));
		}
		logger.info("Rate limits shared through Redis");
		return new RedisRateLimiter(connection, properties.period());
	}

	private static Duration max(Duration a, Duration b) {
		return (a.compareTo(b) >= 0) ? a : b;
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnProperty(prefix = RedisProperties.PREFIX, name = "url")
	static class RedisConfiguration {

		@Bean(destroyMethod = "shutdown")
		RedisClient redisClient(RedisProperties redis) {
			RedisClient client = RedisClient.create(redis.url());
			// Fail fast instead of queueing while Redis is away, so the rate limiter can fail open.
			client.setOptions(ClientOptions.builder()
				.disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
				.timeoutOptions(TimeoutOptions.enabled(redis.timeout()))
				.build());
			return client;
		}

		@Bean(destroyMethod = "close")
		StatefulRedisConnection<String, byte[]> redisConnection(RedisClient client) {
			try {
				return client.connect(RedisCodec.of(StringCodec.UTF8, ByteArrayCodec.INSTANCE));
			}
			catch (RuntimeException ex) {
				throw new IllegalStateException(
						"Cannot connect to Redis at " + RedisProperties.PREFIX + ".url: " + ex.getMessage(), ex);
			}
		}

		@Bean
		HealthCheck redisHealthCheck(StatefulRedisConnection<String, byte[]> connection) {
			return new RedisHealthCheck(connection);
		}

	}

}
