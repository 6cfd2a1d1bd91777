package dev.junction.redis;

import org.springframework.boot.autoconfigure.condition.AnyNestedCondition;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;

/**
 * Redis is configured: {@code spring.data.redis.url}, {@code .host} or
 * {@code .sentinel.master} is set. Otherwise what Redis would share stays in memory.
 */
public class RedisConfigured extends AnyNestedCondition {

	RedisConfigured() {
		super(ConfigurationPhase.REGISTER_BEAN);
	}

	@ConditionalOnProperty(prefix = "spring.data.redis", name = "url")
	static class Url {

	}

	@ConditionalOnProperty(prefix = "spring.data.redis", name = "host")
	static class Host {

	}

	@ConditionalOnProperty(prefix = "spring.data.redis", name = "sentinel.master")
	static class Sentinel {

	}

}
