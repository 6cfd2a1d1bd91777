package dev.junction.calculator.server;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;

import dev.junction.calculator.auth.AuthProperties;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/** IDEs complete and document every setting of calculator-service with its default. */
class CalculatorPropertiesMetadataTests {

	@Test
	void documentsEverySettingWithItsDefault() throws IOException {
		Map<String, JsonNode> properties = metadata();
		assertThat(properties.get(AuthProperties.PREFIX + ".mode").path("defaultValue").asString()).isEqualTo("none");
		assertThat(properties.get(ExecutorProperties.PREFIX + ".type").path("defaultValue").asString())
			.isEqualTo("direct");
		assertThat(properties.get(AuthProperties.PREFIX + ".jwt.clock-skew").path("defaultValue").asString())
			.isEqualTo("30s");
		assertThat(properties.keySet()).filteredOn((name) -> name.startsWith("junction.calculator."))
			.hasSizeGreaterThan(10);
		properties.values()
			.stream()
			.filter((property) -> property.path("name").asString().startsWith("junction.calculator."))
			.forEach((property) -> assertThat(property.path("description").asString())
				.as(property.path("name").asString())
				.isNotBlank());
	}

	private static Map<String, JsonNode> metadata() throws IOException {
		Map<String, JsonNode> properties = new HashMap<>();
		for (URL url : Collections.list(CalculatorPropertiesMetadataTests.class.getClassLoader()
			.getResources("META-INF/spring-configuration-metadata.json"))) {
			try (InputStream in = url.openStream()) {
				JsonMapper.shared()
					.readTree(in)
					.path("properties")
					.forEach((property) -> properties.put(property.path("name").asString(), property));
			}
		}
		return properties;
	}

}
