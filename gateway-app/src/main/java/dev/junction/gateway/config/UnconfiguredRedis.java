package dev.junction.gateway.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.config.ConfigDataEnvironmentPostProcessor;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * Without Redis configured ({@code spring.data.redis.url}, {@code .host} or
 * {@code .sentinel.master}), leaves Boot's Redis auto-configurations out, so that Spring
 * Data Redis and Lettuce are never loaded: a gateway without Redis keeps its buckets and
 * cached answers in memory and has no use for a connection factory to {@code localhost}.
 * Exclusions set in {@code spring.autoconfigure.exclude} are kept.
 */
class UnconfiguredRedis implements EnvironmentPostProcessor, Ordered {

	static final List<String> AUTO_CONFIGURATIONS = List.of(
			"org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration",
			"org.springframework.boot.data.redis.autoconfigure.DataRedisReactiveAutoConfiguration",
			"org.springframework.boot.data.redis.autoconfigure.DataRedisRepositoriesAutoConfiguration",
			"org.springframework.boot.data.redis.autoconfigure.health.DataRedisHealthContributorAutoConfiguration",
			"org.springframework.boot.data.redis.autoconfigure.health.DataRedisReactiveHealthContributorAutoConfiguration",
			"org.springframework.boot.data.redis.autoconfigure.observation.LettuceObservationAutoConfiguration");

	private static final String EXCLUDE = "spring.autoconfigure.exclude";

	private static final List<String> SETTINGS = List.of("spring.data.redis.url", "spring.data.redis.host",
			"spring.data.redis.sentinel.master");

	@Override
	public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
		if (SETTINGS.stream().anyMatch(environment::containsProperty)) {
			return;
		}
		List<String> exclude = new ArrayList<>(
				Binder.get(environment).bind(EXCLUDE, Bindable.listOf(String.class)).orElse(List.of()));
		exclude.addAll(AUTO_CONFIGURATIONS);
		environment.getPropertySources()
			.addFirst(new MapPropertySource("unconfiguredRedis", Map.of(EXCLUDE, String.join(",", exclude))));
	}

	/** After the settings read under their former names ({@code junction.redis.url}). */
	@Override
	public int getOrder() {
		return ConfigDataEnvironmentPostProcessor.ORDER + 20;
	}

}
