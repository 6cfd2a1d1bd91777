package dev.junction.messaging.redis;

import java.util.ArrayList;
import java.util.List;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.impl.NoOpLog;
import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringApplication;
import org.springframework.mock.env.MockEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

/** The former junction.redis.* names still configure Redis for this release, with a warning. */
class RedisEnvironmentTests {

	private final List<String> warnings = new ArrayList<>();

	private final RedisEnvironment postProcessor = new RedisEnvironment((destination) -> new NoOpLog() {

		@Override
		public void warn(Object message) {
			RedisEnvironmentTests.this.warnings.add(message.toString());
		}

	});

	@Test
	void readsTheFormerNamesAsSpringDataRedisSettingsAndWarns() {
		MockEnvironment environment = new MockEnvironment().withProperty("junction.redis.url", "redis://old:6379")
			.withProperty("junction.redis.timeout", "250ms");
		this.postProcessor.postProcessEnvironment(environment, new SpringApplication());
		assertThat(environment.getProperty("spring.data.redis.url")).isEqualTo("redis://old:6379");
		assertThat(environment.getProperty("spring.data.redis.timeout")).isEqualTo("250ms");
		assertThat(this.warnings).singleElement()
			.asString()
			.contains("junction.redis.url -> spring.data.redis.url")
			.contains("junction.redis.timeout -> spring.data.redis.timeout");
	}

	@Test
	void theNewNameWinsWhereBothAreSet() {
		MockEnvironment environment = new MockEnvironment().withProperty("junction.redis.url", "redis://old:6379")
			.withProperty("spring.data.redis.url", "redis://new:6379");
		this.postProcessor.postProcessEnvironment(environment, new SpringApplication());
		assertThat(environment.getProperty("spring.data.redis.url")).isEqualTo("redis://new:6379");
	}

	@Test
	void timesOutAfterOneSecondUnlessConfiguredAndWarnsOfNothingWhenOnlyNewNamesAreUsed() {
		MockEnvironment environment = new MockEnvironment().withProperty("spring.data.redis.url", "redis://new:6379")
			.withProperty("spring.data.redis.connect-timeout", "3s");
		this.postProcessor.postProcessEnvironment(environment, new SpringApplication());
		assertThat(environment.getProperty("spring.data.redis.timeout")).isEqualTo("1s");
		assertThat(environment.getProperty("spring.data.redis.connect-timeout")).isEqualTo("3s");
		assertThat(this.warnings).isEmpty();
	}

}
