package dev.junction.netty;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.commons.logging.impl.NoOpLog;
import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Settings under their former names still configure the new ones for this release, with
 * one warning.
 */
class RenamedPropertiesTests {

	private final List<String> warnings = new ArrayList<>();

	private final RenamedProperties renamed = new RenamedProperties((destination) -> new NoOpLog() {

		@Override
		public void warn(Object message) {
			RenamedPropertiesTests.this.warnings.add(message.toString());
		}

	}, Map.of("app.rate-limit", "app.web.rate-limit", "app.rate-limit.period", "app.web.rate-limit.window",
			"app.prices", "app.web.prices")) {
	};

	private final StandardEnvironment environment = new StandardEnvironment();

	@Test
	void readsKeysBelowAFormerNameUnderTheNewOneAndWarnsOnce() {
		source("args", Map.of("app.rate-limit.requests", "5", "app.rate-limit.fail-open", "false", "other.key", "x"));
		process();
		assertThat(this.environment.getProperty("app.web.rate-limit.requests")).isEqualTo("5");
		assertThat(this.environment.getProperty("app.web.rate-limit.fail-open")).isEqualTo("false");
		assertThat(this.warnings).singleElement()
			.asString()
			.contains("app.rate-limit.requests -> app.web.rate-limit.requests")
			.contains("app.rate-limit.fail-open -> app.web.rate-limit.fail-open")
			.doesNotContain("other.key");
	}

	@Test
	void theMostSpecificFormerNameApplies() {
		source("args", Map.of("app.rate-limit.period", "10s"));
		process();
		assertThat(this.environment.getProperty("app.web.rate-limit.window")).isEqualTo("10s");
		assertThat(this.environment.getProperty("app.web.rate-limit.period")).isNull();
	}

	@Test
	void theNewNameWinsInTheSameSourceAndAMoreSpecificSourceWinsOverAll() {
		source("files", Map.of("app.rate-limit.requests", "6", "app.web.rate-limit.requests", "7",
				"app.rate-limit.tokens", "8", "app.web.rate-limit.tokens", "9"));
		source("args", Map.of("app.rate-limit.requests", "5"));
		process();
		assertThat(this.environment.getProperty("app.web.rate-limit.requests")).isEqualTo("5");
		assertThat(this.environment.getProperty("app.web.rate-limit.tokens")).isEqualTo("9");
	}

	@Test
	void keepsListIndexesAndMapKeysWithDots() {
		Map<String, Object> yaml = new LinkedHashMap<>();
		yaml.put("app.rate-limit.keys[0]", "a");
		yaml.put("app.rate-limit.keys[1]", "b");
		yaml.put("app.prices.[gpt-4.1-mini].input", "0.4");
		source("files", yaml);
		process();
		Binder binder = Binder.get(this.environment);
		assertThat(binder.bind("app.web.rate-limit.keys", Bindable.listOf(String.class)).get()).containsExactly("a",
				"b");
		assertThat(binder.bind("app.web.prices[gpt-4.1-mini].input", String.class).get()).isEqualTo("0.4");
	}

	@Test
	void renamesEnvironmentVariablesInEitherForm() {
		this.environment.getPropertySources()
			.addFirst(new SystemEnvironmentPropertySource("test-systemEnvironment",
					Map.of("APP_RATE_LIMIT_DEFAULT_RESERVATION", "10", "APP_RATELIMIT_FAILOPEN", "false",
							"APP_RATE_LIMIT_PERIOD", "3s", "APP_WEB_RATE_LIMIT_REQUESTS", "4",
							"APP_RATE_LIMIT_REQUESTS", "3", "APPLE_PIE", "x")));
		process();
		Binder binder = Binder.get(this.environment);
		assertThat(binder.bind("app.web.rate-limit.default-reservation", String.class).get()).isEqualTo("10");
		assertThat(binder.bind("app.web.rate-limit.fail-open", String.class).get()).isEqualTo("false");
		assertThat(binder.bind("app.web.rate-limit.window", String.class).get()).isEqualTo("3s");
		assertThat(binder.bind("app.web.rate-limit.requests", String.class).get()).isEqualTo("4");
		assertThat(this.warnings).singleElement()
			.asString()
			.contains("APP_RATE_LIMIT_DEFAULT_RESERVATION -> APP_WEB_RATE_LIMIT_DEFAULT_RESERVATION")
			.contains("APP_RATELIMIT_FAILOPEN -> APP_WEB_RATELIMIT_FAILOPEN")
			.contains("APP_RATE_LIMIT_PERIOD -> APP_WEB_RATE_LIMIT_WINDOW")
			.doesNotContain("APPLE");
	}

	@Test
	void saysNothingWithoutFormerNames() {
		source("args", Map.of("app.web.rate-limit.requests", "5"));
		process();
		assertThat(this.warnings).isEmpty();
		assertThat(this.environment.getPropertySources().stream().map((source) -> source.getName()))
			.noneMatch((name) -> name.startsWith(RenamedProperties.NAME));
	}

	private void source(String name, Map<String, Object> properties) {
		this.environment.getPropertySources().addFirst(new MapPropertySource(name, properties));
	}

	private void process() {
		this.renamed.postProcessEnvironment(this.environment, new SpringApplication());
	}

}
