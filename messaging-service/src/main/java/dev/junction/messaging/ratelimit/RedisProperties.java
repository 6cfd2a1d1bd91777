package dev.junction.messaging.ratelimit;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Shared Redis for state several service instances must agree on (rate-limit buckets).
 *
 * @param url Redis URL ({@code redis://host:6379}); unset keeps that state in memory
 * @param timeout longest wait for a Redis command; commands fail at once while disconnected
 */
@ConfigurationProperties(RedisProperties.PREFIX)
public record RedisProperties(String url, @DefaultValue("1s") Duration timeout) {

	/** Prefix of these properties. */
	public static final String PREFIX = "junction.redis";

}
