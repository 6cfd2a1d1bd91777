package dev.junction.gateway.calculator;

import java.util.LinkedHashMap;
import java.util.List;
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
 * Reads the gateway's calculator settings under their former names,
 * {@code junction.calculator.*} (calculator-service's own namespace), as
 * {@value CalculatorProperties#PREFIX}{@code .*} for one more release, and warns once at
 * start-up which keys to rename. Where both names are set, the new one wins.
 */
class DeprecatedCalculatorProperties implements EnvironmentPostProcessor, Ordered {

	static final String OLD_PREFIX = "junction.calculator.";

	/** Every key of {@link CalculatorProperties}; the rest of the old namespace is the server's. */
	static final List<String> KEYS = List.of("address", "deadline", "health-deadline", "health-cache-ttl", "jwt-token",
			"keep-alive-time", "keep-alive-timeout", "tls.enabled", "tls.ca", "tls.certificate", "tls.private-key",
			"tls.authority");

	static final int ORDER = ConfigDataEnvironmentPostProcessor.ORDER + 10;

	private static final String SOURCE = "deprecatedCalculatorClientProperties";

	private final Log logger;

	DeprecatedCalculatorProperties(DeferredLogFactory logs) {
		this.logger = logs.getLog(DeprecatedCalculatorProperties.class);
	}

	@Override
	public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
		Map<String, Object> renamed = new LinkedHashMap<>();
		for (String key : KEYS) {
			String value = environment.getProperty(OLD_PREFIX + key);
			if (value != null) {
				renamed.put(CalculatorProperties.PREFIX + "." + key, value);
			}
		}
		if (renamed.isEmpty()) {
			return;
		}
		environment.getPropertySources().addLast(new MapPropertySource(SOURCE, renamed));
		this.logger.warn(renamed.keySet()
			.stream()
			.map((name) -> OLD_PREFIX + name.substring(CalculatorProperties.PREFIX.length() + 1) + " -> " + name)
			.collect(Collectors.joining(", ", "Deprecated calculator client settings, read for this release only: ",
					" (junction.calculator.* is calculator-service's own namespace; rename them)")));
	}

	@Override
	public int getOrder() {
		return ORDER;
	}

}
