package dev.junction.redis;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

import org.apache.commons.logging.Log;

import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.config.ConfigDataEnvironmentPostProcessor;
import org.springframework.boot.logging.DeferredLogFactory;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * Redis settings are Spring Boot's {@code spring.data.redis.*}. The former
 * {@code junction.redis.url} and {@code junction.redis.timeout} are still read for this
 * release, with one warning at start-up; where both names are set the new one wins.
 * Commands and connection attempts time out after 1s unless configured otherwise, so that
 * requests never wait long on an absent Redis.
 */
class RedisEnvironment implements EnvironmentPostProcessor, Ordered {

	static final String OLD_PREFIX = "junction.redis.";

	static final String PREFIX = "spring.data.redis.";

	/** Former names and the names they now have. */
	static final Map<String, String> RENAMED = Map.of(OLD_PREFIX + "url", PREFIX + "url", OLD_PREFIX + "timeout",
			PREFIX + "timeout");

	static final String DEFAULT_TIMEOUT = "1s";

	private final Log logger;

	RedisEnvironment(DeferredLogFactory logs) {
		this.logger = logs.getLog(RedisEnvironment.class);
	}

	@Override
	public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
		Map<String, Object> renamed = new LinkedHashMap<>();
		RENAMED.forEach((former, current) -> {
			String value = environment.getProperty(former);
			if (value != null) {
				renamed.put(current, value);
			}
		});
		if (!renamed.isEmpty()) {
			environment.getPropertySources().addLast(new MapPropertySource("deprecatedRedisProperties", renamed));
			this.logger.warn(RENAMED.entrySet()
				.stream()
				.filter((entry) -> renamed.containsKey(entry.getValue()))
				.map((entry) -> entry.getKey() + " -> " + entry.getValue())
				.sorted()
				.collect(Collectors.joining(", ", "Deprecated Redis settings, read for this release only: ",
						" (rename them)")));
		}
		Map<String, Object> defaults = new LinkedHashMap<>();
		defaults.put(PREFIX + "timeout", DEFAULT_TIMEOUT);
		defaults.put(PREFIX + "connect-timeout", DEFAULT_TIMEOUT);
		environment.getPropertySources().addLast(new MapPropertySource("redisDefaults", defaults));
	}

	@Override
	public int getOrder() {
		return ConfigDataEnvironmentPostProcessor.ORDER + 10;
	}

}
