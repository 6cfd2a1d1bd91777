package dev.junction.gateway.calculator;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;

import dev.junction.gateway.support.Json;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/** IDEs complete and document the calculator settings, and flag their former names as deprecated. */
class CalculatorPropertiesMetadataTests {

	@Test
	void documentsEveryCalculatorSettingAndDeprecatesItsFormerName() throws IOException {
		Map<String, JsonNode> properties = gatewayMetadata();
		for (String key : DeprecatedCalculatorProperties.KEYS) {
			JsonNode current = properties.get(CalculatorProperties.PREFIX + "." + key);
			assertThat(current).as(key).isNotNull();
			assertThat(current.path("description").asString()).as(key).isNotBlank();
			assertThat(current.has("deprecation")).as(key).isFalse();
			JsonNode former = properties.get(DeprecatedCalculatorProperties.OLD_PREFIX + key);
			assertThat(former).as(key).isNotNull();
			assertThat(former.at("/deprecation/level").asString()).isEqualTo("warning");
			assertThat(former.at("/deprecation/replacement").asString())
				.isEqualTo(CalculatorProperties.PREFIX + "." + key);
		}
		assertThat(properties.get("junction.gateway.calculator.address").path("defaultValue").asString())
			.isEqualTo("static://127.0.0.1:50051");
	}

	private static Map<String, JsonNode> gatewayMetadata() throws IOException {
		for (URL url : Collections.list(CalculatorPropertiesMetadataTests.class.getClassLoader()
			.getResources("META-INF/spring-configuration-metadata.json"))) {
			try (InputStream in = url.openStream()) {
				JsonNode metadata = Json.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
				if (metadata.path("groups").toString().contains(CalculatorProperties.class.getName())) {
					return StreamSupport.stream(metadata.path("properties").spliterator(), false)
						.collect(Collectors.toMap((property) -> property.path("name").asString(), Function.identity()));
				}
			}
		}
		throw new AssertionError("no configuration metadata for " + CalculatorProperties.class.getName());
	}

}
