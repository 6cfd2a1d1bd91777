package dev.junction.messaging.db;

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
 * The service's defaults for Spring Boot's R2DBC pool, and the former
 * {@code junction.messaging.db.*} settings read as {@code spring.r2dbc.*} for one more
 * release, with one warning at start-up naming the keys to rename. Where both names are
 * set the new one wins; either wins over the defaults.
 */
class DatabaseEnvironment implements EnvironmentPostProcessor, Ordered {

	static final String OLD_PREFIX = "junction.messaging.db.";

	/**
	 * Former names and the names they now have (the URL accepts the same forms as
	 * before).
	 */
	static final Map<String, String> RENAMED = Map.of(OLD_PREFIX + "url", "spring.r2dbc.url", OLD_PREFIX + "username",
			"spring.r2dbc.username", OLD_PREFIX + "password", "spring.r2dbc.password", OLD_PREFIX + "pool-initial-size",
			"spring.r2dbc.pool.initial-size", OLD_PREFIX + "pool-max-size", "spring.r2dbc.pool.max-size",
			OLD_PREFIX + "pool-max-acquire-time", "spring.r2dbc.pool.max-acquire-time", OLD_PREFIX + "connect-timeout",
			"spring.r2dbc.pool.max-create-connection-time");

	/** The former H2 file setting: an H2 URL now. */
	static final String H2_PATH = OLD_PREFIX + "h2-path";

	/**
	 * The pool: one connection stays open, since an idle H2 file would close and a second
	 * process open it.
	 */
	static final Map<String, Object> DEFAULTS = Map.of("spring.r2dbc.pool.initial-size", "2",
			"spring.r2dbc.pool.max-size", "20", "spring.r2dbc.pool.min-idle", "1", "spring.r2dbc.pool.max-acquire-time",
			"5s", "spring.r2dbc.pool.max-create-connection-time", "5s", "spring.r2dbc.pool.max-idle-time", "10m",
			"spring.r2dbc.pool.max-validation-time", "2s");

	private final Log logger;

	DatabaseEnvironment(DeferredLogFactory logs) {
		this.logger = logs.getLog(DatabaseEnvironment.class);
	}

	@Override
	public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
		Map<String, Object> renamed = new LinkedHashMap<>();
		Map<String, String> used = new LinkedHashMap<>();
		RENAMED.forEach((former, current) -> {
			String value = environment.getProperty(former);
			if (value != null) {
				renamed.put(current, value);
				used.put(former, current);
			}
		});
		String h2Path = environment.getProperty(H2_PATH);
		if (h2Path != null) {
			renamed.putIfAbsent("spring.r2dbc.url", "jdbc:h2:file:" + h2Path + ";DB_CLOSE_ON_EXIT=FALSE");
			used.put(H2_PATH, "spring.r2dbc.url=r2dbc:h2:file:///" + h2Path);
		}
		if (!renamed.isEmpty()) {
			environment.getPropertySources().addLast(new MapPropertySource("deprecatedDatabaseProperties", renamed));
			warn(used);
		}
		environment.getPropertySources().addLast(new MapPropertySource("databaseDefaults", DEFAULTS));
	}

	private void warn(Map<String, String> used) {
		this.logger.warn(used.entrySet()
			.stream()
			.map((entry) -> entry.getKey() + " -> " + entry.getValue())
			.sorted()
			.collect(Collectors.joining(", ", "Deprecated database settings, read for this release only: ",
					" (rename them)")));
	}

	@Override
	public int getOrder() {
		return ConfigDataEnvironmentPostProcessor.ORDER + 10;
	}

}
