package dev.junction.netty;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import org.apache.commons.logging.Log;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.config.ConfigDataEnvironmentPostProcessor;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.IterableConfigurationPropertySource;
import org.springframework.boot.env.OriginTrackedMapPropertySource;
import org.springframework.boot.logging.DeferredLogFactory;
import org.springframework.boot.origin.OriginTrackedValue;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.EnumerablePropertySource;
import org.springframework.core.env.PropertySource;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/**
 * Reads settings under their former names for one more release. Every key at or below a
 * former name is added under the new name just behind the property source that set it, so
 * that the new name wins where one source sets both; environment variables are renamed in
 * their own form ({@code JUNCTION_RATE_LIMIT_WINDOW}). One warning at start-up lists what
 * to rename. An application registers a subclass that names its renames as an
 * {@link EnvironmentPostProcessor}.
 */
public abstract class RenamedProperties implements EnvironmentPostProcessor, Ordered {

	/**
	 * After the configuration files are read, before anything else reads the settings.
	 */
	public static final int ORDER = ConfigDataEnvironmentPostProcessor.ORDER + 5;

	/**
	 * Prefix of the name of a source of renamed keys, followed by the name of the source
	 * they came from (Spring Boot maps {@code *-systemEnvironment} sources as environment
	 * variables).
	 */
	static final String NAME = "renamed-";

	private final Log logger;

	private final List<Rename> renames;

	/**
	 * @param logs the start-up log
	 * @param renamed former names and the names they now have; a key below a former name
	 * moves below the new one, and the most specific former name applies
	 */
	protected RenamedProperties(DeferredLogFactory logs, Map<String, String> renamed) {
		this.logger = logs.getLog(getClass());
		this.renames = renamed.entrySet()
			.stream()
			.map((entry) -> new Rename(ConfigurationPropertyName.of(entry.getKey()),
					ConfigurationPropertyName.of(entry.getValue())))
			.sorted(Comparator.comparingInt((Rename rename) -> rename.former().getNumberOfElements()).reversed())
			.toList();
	}

	@Override
	public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
		Set<String> warnings = new LinkedHashSet<>();
		Map<String, PropertySource<?>> additions = new LinkedHashMap<>();
		for (PropertySource<?> source : environment.getPropertySources()) {
			if (ConfigurationPropertySources.isAttachedConfigurationPropertySource(source)) {
				continue;
			}
			PropertySource<?> renamed = (source instanceof SystemEnvironmentPropertySource variables)
					? renameVariables(variables, warnings) : renameProperties(source, warnings);
			if (renamed != null) {
				additions.put(source.getName(), renamed);
			}
		}
		additions.forEach((name, renamed) -> environment.getPropertySources().addAfter(name, renamed));
		if (!warnings.isEmpty()) {
			this.logger.warn("Renamed settings, read under their former names for this release only: "
					+ String.join(", ", warnings) + " (rename them)");
		}
	}

	private @Nullable PropertySource<?> renameProperties(PropertySource<?> source, Set<String> warnings) {
		Map<String, Object> renamed = new LinkedHashMap<>();
		for (ConfigurationPropertySource properties : ConfigurationPropertySources.from(source)) {
			if (properties instanceof IterableConfigurationPropertySource iterable) {
				iterable.stream().forEach((name) -> {
					ConfigurationPropertyName current = rename(name);
					ConfigurationProperty property = iterable.getConfigurationProperty(name);
					if (current != null && property != null) {
						renamed.put(current.toString(),
								OriginTrackedValue.of(property.getValue(), property.getOrigin()));
						warnings.add(name + " -> " + current);
					}
				});
			}
		}
		return renamed.isEmpty() ? null : new OriginTrackedMapPropertySource(NAME + source.getName(), renamed);
	}

	private @Nullable ConfigurationPropertyName rename(ConfigurationPropertyName name) {
		for (Rename rename : this.renames) {
			if (rename.former().equals(name) || rename.former().isAncestorOf(name)) {
				return rename.current().append(name.subName(rename.former().getNumberOfElements()));
			}
		}
		return null;
	}

	private @Nullable PropertySource<?> renameVariables(EnumerablePropertySource<?> variables, Set<String> warnings) {
		Map<String, Object> renamed = new LinkedHashMap<>();
		for (String variable : variables.getPropertyNames()) {
			String current = renameVariable(variable);
			Object value = variables.getProperty(variable);
			if (current != null && value != null) {
				renamed.put(current, value);
				warnings.add(variable + " -> " + current);
			}
		}
		return renamed.isEmpty() ? null : new SystemEnvironmentPropertySource(NAME + variables.getName(), renamed);
	}

	/**
	 * A variable in either of Spring Boot's forms: {@code RATELIMIT} or
	 * {@code RATE_LIMIT}.
	 */
	private @Nullable String renameVariable(String variable) {
		for (Rename rename : this.renames) {
			for (boolean dashes : new boolean[] { true, false }) {
				String former = variable(rename.former(), dashes);
				if (variable.equals(former) || variable.startsWith(former + "_")) {
					return variable(rename.current(), dashes) + variable.substring(former.length());
				}
			}
		}
		return null;
	}

	private static String variable(ConfigurationPropertyName name, boolean dashesAsUnderscores) {
		List<String> elements = new ArrayList<>();
		for (int i = 0; i < name.getNumberOfElements(); i++) {
			String element = name.getElement(i, ConfigurationPropertyName.Form.DASHED);
			elements.add(dashesAsUnderscores ? element.replace('-', '_') : element.replace("-", ""));
		}
		return String.join("_", elements).toUpperCase(Locale.ROOT);
	}

	@Override
	public int getOrder() {
		return ORDER;
	}

	private record Rename(ConfigurationPropertyName former, ConfigurationPropertyName current) {
	}

}
