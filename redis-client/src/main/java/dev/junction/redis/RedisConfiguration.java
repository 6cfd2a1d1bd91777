package dev.junction.redis;

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.TimeoutOptions;

import org.springframework.boot.data.redis.autoconfigure.DataRedisProperties;
import org.springframework.boot.data.redis.autoconfigure.LettuceClientOptionsBuilderCustomizer;
import org.springframework.boot.health.contributor.ReactiveHealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * Redis on Spring Boot's Lettuce client ({@code spring.data.redis.*}), when configured: a
 * {@link RedisConnector} and the {@code redis} health indicator. The application starts
 * whether or not Redis answers. Applications import it and turn Boot's own Redis
 * indicator off ({@code management.health.redis.enabled=false}), which would report Redis
 * away as DOWN.
 */
@Configuration(proxyBeanMethods = false)
@Conditional(RedisConfigured.class)
public class RedisConfiguration {

	/**
	 * Commands fail at once while disconnected (not queued), so callers fall back at
	 * once.
	 */
	@Bean
	LettuceClientOptionsBuilderCustomizer failFastWhileDisconnected(DataRedisProperties properties) {
		return (options) -> {
			options.disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS);
			if (properties.getTimeout() != null) {
				options.timeoutOptions(TimeoutOptions.enabled(properties.getTimeout()));
			}
		};
	}

	@Bean(destroyMethod = "close")
	RedisConnector redisConnector(LettuceConnectionFactory connectionFactory) {
		AbstractRedisClient client = connectionFactory.getRequiredNativeClient();
		if (!(client instanceof RedisClient redisClient)) {
			throw new IllegalStateException(
					"Redis Cluster is not supported: set spring.data.redis.url (or host and port, or sentinel.*)");
		}
		return new RedisConnector(redisClient);
	}

	/**
	 * Replaces Boot's Redis indicator (same name): Redis away makes the application
	 * degraded, not down.
	 */
	@Bean
	ReactiveHealthIndicator redisHealthIndicator(RedisConnector connector) {
		return new RedisHealthIndicator(connector);
	}

}
