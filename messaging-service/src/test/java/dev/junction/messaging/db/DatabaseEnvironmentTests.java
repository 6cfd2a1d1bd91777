package dev.junction.messaging.db;

import java.util.ArrayList;
import java.util.List;

import org.apache.commons.logging.impl.NoOpLog;
import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringApplication;
import org.springframework.mock.env.MockEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The pool's defaults, and the former junction.messaging.db.* names for this release,
 * with a warning.
 */
class DatabaseEnvironmentTests {

	private final List<String> warnings = new ArrayList<>();

	private final DatabaseEnvironment postProcessor = new DatabaseEnvironment((destination) -> new NoOpLog() {

		@Override
		public void warn(Object message) {
			DatabaseEnvironmentTests.this.warnings.add(message.toString());
		}

	});

	@Test
	void readsTheFormerNamesAsSpringR2dbcSettingsAndWarnsOnce() {
		MockEnvironment environment = new MockEnvironment()
			.withProperty("junction.messaging.db.url", "postgresql://db:5432/messaging")
			.withProperty("junction.messaging.db.username", "app")
			.withProperty("junction.messaging.db.password", "secret")
			.withProperty("junction.messaging.db.pool-max-size", "7")
			.withProperty("junction.messaging.db.connect-timeout", "3s");
		this.postProcessor.postProcessEnvironment(environment, new SpringApplication());
		assertThat(environment.getProperty("spring.r2dbc.url")).isEqualTo("postgresql://db:5432/messaging");
		assertThat(environment.getProperty("spring.r2dbc.username")).isEqualTo("app");
		assertThat(environment.getProperty("spring.r2dbc.password")).isEqualTo("secret");
		assertThat(environment.getProperty("spring.r2dbc.pool.max-size")).isEqualTo("7");
		assertThat(environment.getProperty("spring.r2dbc.pool.max-create-connection-time")).isEqualTo("3s");
		assertThat(this.warnings).singleElement()
			.asString()
			.contains("junction.messaging.db.url -> spring.r2dbc.url")
			.contains("junction.messaging.db.connect-timeout -> spring.r2dbc.pool.max-create-connection-time")
			.doesNotContain("secret");
	}

	@Test
	void theNewNamesWin() {
		MockEnvironment environment = new MockEnvironment()
			.withProperty("junction.messaging.db.url", "postgresql://old:5432/messaging")
			.withProperty("spring.r2dbc.url", "r2dbc:postgresql://new:5432/messaging");
		this.postProcessor.postProcessEnvironment(environment, new SpringApplication());
		assertThat(environment.getProperty("spring.r2dbc.url")).isEqualTo("r2dbc:postgresql://new:5432/messaging");
	}

	@Test
	void readsTheFormerH2PathAsAnH2UrlUnlessAUrlIsSet() {
		MockEnvironment environment = new MockEnvironment().withProperty("junction.messaging.db.h2-path", "data/x");
		this.postProcessor.postProcessEnvironment(environment, new SpringApplication());
		assertThat(environment.getProperty("spring.r2dbc.url")).isEqualTo("jdbc:h2:file:data/x;DB_CLOSE_ON_EXIT=FALSE");
		MockEnvironment both = new MockEnvironment().withProperty("junction.messaging.db.h2-path", "data/x")
			.withProperty("junction.messaging.db.url", "postgresql://db/messaging");
		this.postProcessor.postProcessEnvironment(both, new SpringApplication());
		assertThat(both.getProperty("spring.r2dbc.url")).isEqualTo("postgresql://db/messaging");
	}

	@Test
	void saysNothingWithoutFormerNamesAndDefaultsThePool() {
		MockEnvironment environment = new MockEnvironment();
		this.postProcessor.postProcessEnvironment(environment, new SpringApplication());
		assertThat(this.warnings).isEmpty();
		assertThat(environment.getProperty("spring.r2dbc.pool.max-size")).isEqualTo("20");
		assertThat(environment.getProperty("spring.r2dbc.pool.min-idle")).isEqualTo("1");
	}

	@Test
	void theFormerNamesWinOverTheDefaults() {
		MockEnvironment environment = new MockEnvironment().withProperty("junction.messaging.db.pool-max-size", "7");
		this.postProcessor.postProcessEnvironment(environment, new SpringApplication());
		assertThat(environment.getProperty("spring.r2dbc.pool.max-size")).isEqualTo("7");
	}

}
