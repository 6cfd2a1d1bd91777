package dev.junction.redis;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.commons.logging.impl.NoOpLog;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.SpringApplication;
import org.springframework.mock.env.MockEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The former junction.redis.* names still configure Redis for this release, with a
 * warning.
 */
class RedisEnvironmentTests {

	private final List<String> warnings = new ArrayList<>();

	private final RedisEnvironment postProcessor = new RedisEnvironment((destination) -> new NoOpLog() {

		@Override
		public void warn(Object message) {
			RedisEnvironmentTests.this.warnings.add(message.toString());
		}

	});

	@Test
	void readsTheFormerNamesAsSpringDataRedisSettingsAndWarnsOnce() {
		MockEnvironment environment = new MockEnvironment().withProperty("junction.redis.url", "redis://old:6379")
			.withProperty("junction.redis.timeout", "250ms");
		this.postProcessor.postProcessEnvironment(environment, new SpringApplication());
		assertThat(environment.getProperty("spring.data.redis.url")).isEqualTo("redis://old:6379");
		assertThat(environment.getProperty("spring.data.redis.timeout")).isEqualTo("250ms");
		assertThat(this.warnings).singleElement()
			.asString()
			.contains(
					"junction.redis.timeout -> spring.data.redis.timeout, junction.redis.url -> spring.data.redis.url");
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

	@Test
	void theConfigurationMetadataDeprecatesTheFormerNames() throws IOException {
		Map<String, JsonNode> properties = new HashMap<>();
		for (URL url : Collections.list(RedisEnvironmentTests.class.getClassLoader()
			.getResources("META-INF/spring-configuration-metadata.json"))) {
			try (InputStream in = url.openStream()) {
				JsonMapper.shared()
					.readTree(in)
					.path("properties")
					.forEach((property) -> properties.put(property.path("name").asString(), property));
			}
		}
		RedisEnvironment.RENAMED.forEach((former, current) -> {
			JsonNode property = properties.get(former);
			assertThat(property).as(former).isNotNull();
			assertThat(property.at("/deprecation/level").asString()).isEqualTo("warning");
			assertThat(property.at("/deprecation/replacement").asString()).isEqualTo(current);
		});
	}

}
