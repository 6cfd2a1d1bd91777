package dev.junction.mock.models;

import java.util.List;
import java.util.Map;

import dev.junction.mock.MockProviderServer;
import dev.junction.mock.support.TestHttp;
import dev.junction.mock.support.TestHttp.Response;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

class ModelCatalogIntegrationTests {

	private static MockProviderServer server;

	private static TestHttp http;

	@BeforeAll
	static void start() {
		server = MockProviderServer.start(Map.of("junction.mock.models", List.of("gpt-test", "claude-test")));
		http = TestHttp.of(server);
	}

	@AfterAll
	static void stop() {
		server.close();
	}

	@Test
	void listsTheConfiguredModelsInOpenAiShape() {
		JsonNode json = http.get("/v1/models", Map.of()).json();

		assertThat(json.path("object").stringValue()).isEqualTo("list");
		assertThat(json.path("data")).hasSize(2);
		JsonNode model = json.path("data").get(0);
		assertThat(model.path("id").stringValue()).isEqualTo("gpt-test");
		assertThat(model.path("object").stringValue()).isEqualTo("model");
		assertThat(model.path("created").isIntegralNumber()).isTrue();
		assertThat(model.path("owned_by").stringValue()).isNotEmpty();
	}

	@Test
	void listsTheModelsInAnthropicShapeForAnthropicClients() {
		JsonNode json = http.get("/v1/models", Map.of("anthropic-version", "2023-06-01")).json();

		assertThat(json.path("data").get(1).path("type").stringValue()).isEqualTo("model");
		assertThat(json.path("data").get(1).path("id").stringValue()).isEqualTo("claude-test");
		assertThat(json.path("has_more").booleanValue()).isFalse();
		assertThat(json.path("first_id").stringValue()).isEqualTo("gpt-test");
		assertThat(json.path("last_id").stringValue()).isEqualTo("claude-test");
	}

	@Test
	void answersOneModelOr404() {
		assertThat(http.get("/v1/models/claude-test", Map.of()).json().path("id").stringValue())
			.isEqualTo("claude-test");

		Response missing = http.get("/v1/models/nope", Map.of());
		assertThat(missing.status()).isEqualTo(404);
		assertThat(missing.json().path("error").path("code").stringValue()).isEqualTo("model_not_found");
	}

	@Test
	void answersAnUnknownUrlWithAProviderShaped404() {
		Response response = http.get("/v1/nothing-here", Map.of());

		assertThat(response.status()).isEqualTo(404);
		assertThat(response.json().path("error").path("code").stringValue()).isEqualTo("unknown_url");
	}

}
