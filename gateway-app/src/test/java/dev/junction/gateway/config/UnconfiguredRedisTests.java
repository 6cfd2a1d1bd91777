package dev.junction.gateway.config;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/** Boot's Redis auto-configurations are left out exactly when Redis is not configured. */
class UnconfiguredRedisTests {

	@Test
	void leavesRedisOutWithoutRedisSettings() {
		assertThat(excluded(Map.of())).containsExactlyElementsOf(UnconfiguredRedis.AUTO_CONFIGURATIONS);
	}

	@Test
	void keepsTheExclusionsAlreadySet() {
		assertThat(excluded(Map.of("spring.autoconfigure.exclude", "com.example.OneAutoConfiguration")))
			.startsWith("com.example.OneAutoConfiguration")
			.containsAll(UnconfiguredRedis.AUTO_CONFIGURATIONS);
		assertThat(excluded(Map.of("spring.autoconfigure.exclude[0]", "com.example.OneAutoConfiguration",
				"spring.autoconfigure.exclude[1]", "com.example.TwoAutoConfiguration")))
			.startsWith("com.example.OneAutoConfiguration", "com.example.TwoAutoConfiguration")
			.containsAll(UnconfiguredRedis.AUTO_CONFIGURATIONS);
	}

	@Test
	void keepsRedisWhenAnyRedisSettingIsThere() {
		assertThat(excluded(Map.of("spring.data.redis.url", "redis://127.0.0.1:6379"))).isEmpty();
		assertThat(excluded(Map.of("spring.data.redis.host", "redis"))).isEmpty();
		assertThat(excluded(Map.of("spring.data.redis.sentinel.master", "main"))).isEmpty();
		assertThat(excluded(Map.of("spring.autoconfigure.exclude", "com.example.OneAutoConfiguration",
				"spring.data.redis.host", "redis")))
			.containsExactly("com.example.OneAutoConfiguration");
	}

	@Test
	void readsRedisSettingsFromEnvironmentVariables() {
		StandardEnvironment environment = new StandardEnvironment();
		environment.getPropertySources()
			.addFirst(
					new SystemEnvironmentPropertySource("env", Map.of("SPRING_DATA_REDIS_URL", "redis://redis:6379")));
		assertThat(excluded(environment)).isEmpty();
	}

	private static List<String> excluded(Map<String, Object> properties) {
		StandardEnvironment environment = new StandardEnvironment();
		environment.getPropertySources().addFirst(new MapPropertySource("test", properties));
		return excluded(environment);
	}

	private static List<String> excluded(StandardEnvironment environment) {
		new UnconfiguredRedis().postProcessEnvironment(environment, null);
		return Binder.get(environment)
			.bind("spring.autoconfigure.exclude", Bindable.listOf(String.class))
			.orElse(List.of());
	}

}
