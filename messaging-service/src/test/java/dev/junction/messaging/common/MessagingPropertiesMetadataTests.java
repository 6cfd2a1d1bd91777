package dev.junction.messaging.common;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.util.Collections;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * IDEs complete and document the service's settings, and flag their former names as
 * deprecated.
 */
class MessagingPropertiesMetadataTests {

	@Test
	void documentsEverySettingWithItsDefault() throws IOException {
		Map<String, JsonNode> properties = messagingMetadata();
		assertThat(properties.get("junction.messaging.http.request-timeout").path("defaultValue").asString())
			.isEqualTo("30s");
		assertThat(properties.get("junction.messaging.rate-limit.fail-open").path("defaultValue").asBoolean()).isTrue();
		assertThat(properties.get("junction.messaging.webhooks.max-attempts").path("defaultValue").asInt())
			.isEqualTo(5);
		assertThat(properties.get("junction.messaging.db.url").path("deprecation").path("replacement").asString())
			.isEqualTo("spring.r2dbc.url");
		assertThat(properties.get("junction.messaging.db.pool-max-size")
			.path("deprecation")
			.path("replacement")
			.asString()).isEqualTo("spring.r2dbc.pool.max-size");
		properties.values()
			.stream()
			.filter((property) -> property.path("name").asString().startsWith("junction.messaging."))
			.forEach((property) -> assertThat(property.path("description").asString())
				.as(property.path("name").asString())
				.isNotBlank());
	}

	@Test
	void deprecatesEachFormerNameInFavourOfTheCurrentOne() throws IOException {
		Map<String, JsonNode> properties = messagingMetadata();
		assertThat(RenamedMessagingProperties.RENAMED).hasSize(10);
		RenamedMessagingProperties.RENAMED.forEach((former, current) -> {
			assertThat(properties.get(current)).as(current).isNotNull();
			assertThat(properties.get(current).has("deprecation")).as(current).isFalse();
			JsonNode deprecated = properties.get(former);
			assertThat(deprecated).as(former).isNotNull();
			assertThat(deprecated.at("/deprecation/level").asString()).isEqualTo("warning");
			assertThat(deprecated.at("/deprecation/replacement").asString()).as(former).isEqualTo(current);
		});
	}

	private static Map<String, JsonNode> messagingMetadata() throws IOException {
		for (URL url : Collections.list(MessagingPropertiesMetadataTests.class.getClassLoader()
			.getResources("META-INF/spring-configuration-metadata.json"))) {
			try (InputStream in = url.openStream()) {
				JsonNode metadata = JsonMapper.shared().readTree(in);
				if (metadata.path("groups").toString().contains(MessagingProperties.class.getName())) {
					return StreamSupport.stream(metadata.path("properties").spliterator(), false)
						.collect(Collectors.toMap((property) -> property.path("name").asString(), Function.identity()));
				}
			}
		}
		throw new AssertionError("no configuration metadata for " + MessagingProperties.class.getName());
	}

}
