package dev.junction.gateway.config;

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

/**
 * IDEs complete and document every gateway setting with its default, and flag each former
 * name as deprecated in favour of the current one.
 */
class GatewayPropertiesMetadataTests {

	@Test
	void documentsEverySettingAndDeprecatesEachFormerName() throws IOException {
		Map<String, JsonNode> properties = gatewayMetadata();
		int renamed = 0;
		for (JsonNode property : properties.values()) {
			String name = property.path("name").asString();
			if (!name.startsWith(GatewayProperties.PREFIX + ".")) {
				continue;
			}
			assertThat(property.path("description").asString()).as(name).isNotBlank();
			assertThat(property.has("deprecation")).as(name).isFalse();
			String former = formerName(name);
			if (former != null) {
				JsonNode deprecated = properties.get(former);
				assertThat(deprecated).as(former).isNotNull();
				assertThat(deprecated.at("/deprecation/level").asString()).isEqualTo("warning");
				assertThat(deprecated.at("/deprecation/replacement").asString()).as(former).isEqualTo(name);
				renamed++;
			}
		}
		assertThat(renamed).isGreaterThan(60);
		assertThat(properties.get("junction.gateway.calculator.address").path("defaultValue").asString())
			.isEqualTo("static://127.0.0.1:50051");
		assertThat(properties.get("junction.gateway.rate-limit.window").path("defaultValue").asString())
			.isEqualTo("1m");
		assertThat(properties.get("junction.gateway.providers-defaults.concurrency").path("defaultValue").asInt())
			.isEqualTo(1000);
		assertThat(properties.get("junction.gateway.providers-defaults.key-cooldown").path("defaultValue").asString())
			.isEqualTo("30s");
	}

	private static String formerName(String name) {
		return RenamedGatewayProperties.RENAMED.entrySet()
			.stream()
			.filter((entry) -> name.equals(entry.getValue()) || name.startsWith(entry.getValue() + "."))
			.map((entry) -> entry.getKey() + name.substring(entry.getValue().length()))
			.findFirst()
			.orElse(null);
	}

	private static Map<String, JsonNode> gatewayMetadata() throws IOException {
		for (URL url : Collections.list(GatewayPropertiesMetadataTests.class.getClassLoader()
			.getResources("META-INF/spring-configuration-metadata.json"))) {
			try (InputStream in = url.openStream()) {
				JsonNode metadata = Json.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
				if (metadata.path("groups").toString().contains(GatewayProperties.class.getName())) {
					return StreamSupport.stream(metadata.path("properties").spliterator(), false)
						.collect(Collectors.toMap((property) -> property.path("name").asString(), Function.identity()));
				}
			}
		}
		throw new AssertionError("no configuration metadata for " + GatewayProperties.class.getName());
	}

}
