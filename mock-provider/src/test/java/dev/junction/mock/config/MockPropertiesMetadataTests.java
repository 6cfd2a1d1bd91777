package dev.junction.mock.config;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * IDEs complete and document the emulator's settings, and flag their former names as
 * deprecated.
 */
class MockPropertiesMetadataTests {

	@Test
	void documentsEverySettingAndDeprecatesItsFormerName() throws IOException {
		Map<String, JsonNode> properties = metadata();
		assertThat(properties.get("junction.mock.http.max-body-size").path("defaultValue").asString())
			.isEqualTo("16MB");
		properties.values()
			.stream()
			.filter((property) -> property.path("name").asString().startsWith(MockProperties.PREFIX + "."))
			.forEach((property) -> assertThat(property.path("description").asString())
				.as(property.path("name").asString())
				.isNotBlank());
		assertThat(RenamedMockProperties.RENAMED).hasSize(13);
		RenamedMockProperties.RENAMED.forEach((former, current) -> {
			assertThat(properties.get(current)).as(current).isNotNull();
			assertThat(properties.get(former)).as(former).isNotNull();
			assertThat(properties.get(former).at("/deprecation/level").asString()).isEqualTo("warning");
			assertThat(properties.get(former).at("/deprecation/replacement").asString()).as(former).isEqualTo(current);
		});
	}

	private static Map<String, JsonNode> metadata() throws IOException {
		Map<String, JsonNode> properties = new HashMap<>();
		for (URL url : Collections.list(MockPropertiesMetadataTests.class.getClassLoader()
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
