package dev.junction.mock;

import java.util.Map;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * The emulator as a standalone server: {@code java -jar mock-provider-exec.jar} listens
 * on 8090. Its defaults are default properties, not an {@code application.properties}, so
 * that the plain jar on another module's classpath brings no configuration with it.
 */
@SpringBootApplication
public class MockProviderApplication {

	/**
	 * Defaults that any property source (arguments, environment, files) overrides.
	 * Spring's own {@code http.server.requests} observation is off: it cost a quarter of
	 * the throughput under load, and the {@code junction.mock.*} counters say what tests
	 * need; set the property to true to get it back. No static content is served, so a
	 * path such as {@code /%2e%2e/x} is a plain 404 rather than a warning in the log.
	 */
	public static final Map<String, Object> DEFAULTS = Map.of("server.port", 8090, "server.shutdown", "immediate",
			"spring.main.banner-mode", "off", "management.endpoints.web.exposure.include", "health,info,prometheus",
			"management.metrics.tags.application", "mock-provider", "logging.pattern.correlation",
			"%replace(%kvp{NONE}){'^(.+)$', '[$1] '}", "management.observations.enable.http.server.requests", false,
			"spring.web.resources.add-mappings", false);

	public static void main(String[] args) {
		application().run(args);
	}

	/** The application with its defaults, ready to run. */
	public static SpringApplication application() {
		SpringApplication application = new SpringApplication(MockProviderApplication.class);
		application.setDefaultProperties(DEFAULTS);
		return application;
	}

}
