package dev.junction.messaging.ratelimit;

import java.time.Duration;

import dev.junction.redis.RedisConnector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Chooses where buckets live: Redis when {@code spring.data.redis.*} is configured,
 * memory otherwise.
 */
@Configuration(proxyBeanMethods = false)
class RateLimitConfiguration {

	private static final Logger logger = LoggerFactory.getLogger(RateLimitConfiguration.class);

	@Bean
	RateLimiter rateLimiter(RateLimitProperties properties, ObjectProvider<RedisConnector> redis) {
		RedisConnector connector = redis.getIfAvailable();
		if (connector == null) {
			return new LocalRateLimiter(max(properties.window().multipliedBy(2), Duration.ofMinutes(1)));
		}
		logger.info("Rate limits shared through Redis");
		return new RedisRateLimiter(connector, properties.window());
	}

	private static Duration max(Duration a, Duration b) {
		return (a.compareTo(b) >= 0) ? a : b;
	}

}
