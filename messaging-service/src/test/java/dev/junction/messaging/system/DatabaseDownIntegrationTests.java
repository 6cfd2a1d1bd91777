package dev.junction.messaging.system;

import dev.junction.messaging.support.TestDatabase;
import dev.junction.messaging.support.TestHttp;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.HttpStatus;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.reactive.server.WebTestClient;

import static org.assertj.core.api.Assertions.assertThat;

/** With its own PostgreSQL server, which the test stops. */
@EnabledIfSystemProperty(named = TestDatabase.PROPERTY, matches = "postgresql")
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "junction.messaging.admin-key=database-down-admin-key", "spring.r2dbc.pool.max-acquire-time=2s",
				"spring.r2dbc.pool.max-create-connection-time=2s", "logging.level.io.zonky.test=warn" })
class DatabaseDownIntegrationTests {

	private static EmbeddedPostgres server;

	@LocalServerPort
	int port;

	@DynamicPropertySource
	static void ownDatabase(DynamicPropertyRegistry registry) {
		server = TestDatabase.startPostgres();
		registry.add("spring.r2dbc.url", () -> TestDatabase.url(server));
	}

	@AfterAll
	static void stop() {
		if (server != null) {
			TestDatabase.close(server);
		}
	}

	@Test
	void reportsTheFailingCheckWith503WhenTheDatabaseIsDown() {
		WebTestClient client = TestHttp.webTestClient(this.port).build();
		client.get().uri("/health").exchange().expectStatus().isOk().expectBody(Void.class);
		TestDatabase.close(server);
		server = null;
		JsonNode health = body(
				client.get().uri("/health").exchange().expectStatus().isEqualTo(HttpStatus.SERVICE_UNAVAILABLE));
		assertThat(health.get("status").asString()).isEqualTo("DOWN");
		assertThat(health.get("checks").get("database").get("status").asString()).isEqualTo("DOWN");
		assertThat(health.get("checks").get("database").get("error").asString()).isNotBlank();
		JsonNode problem = body(client.get()
			.uri("/instances")
			.header("x-api-key", "jk_a-key-that-is-not-cached")
			.exchange()
			.expectStatus()
			.isEqualTo(HttpStatus.SERVICE_UNAVAILABLE));
		assertThat(problem.get("type").asString()).isEqualTo("https://junction.dev/problems/unavailable");
		assertThat(problem.toString()).doesNotContain("Exception");
	}

	private static JsonNode body(WebTestClient.ResponseSpec response) {
		return response.expectBody(JsonNode.class).returnResult().getResponseBody();
	}

}
