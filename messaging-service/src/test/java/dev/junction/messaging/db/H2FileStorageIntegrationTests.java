package dev.junction.messaging.db;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;

import dev.junction.messaging.MessagingApplication;
import dev.junction.messaging.support.ServiceProcess;
import dev.junction.messaging.support.TestDatabase;
import dev.junction.messaging.support.TestHttp;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.util.FileSystemUtils;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * With no database configured the service keeps its data in an H2 file that survives
 * restarts.
 */
@EnabledIfSystemProperty(named = TestDatabase.PROPERTY, matches = "h2")
class H2FileStorageIntegrationTests {

	@TempDir
	Path directory;

	@Test
	void keepsDataAcrossRestarts() {
		String path = this.directory.resolve("data/messaging").toString();
		String id;
		try (ConfigurableApplicationContext first = start(path)) {
			JsonNode created = client(first).post()
				.uri("/instances")
				.contentType(MediaType.APPLICATION_JSON)
				.bodyValue(Map.of("name", "persistent", "channel", "email"))
				.exchange()
				.expectStatus()
				.isCreated()
				.expectBody(JsonNode.class)
				.returnResult()
				.getResponseBody();
			id = created.get("id").asString();
		}
		assertThat(Files.exists(this.directory.resolve("data/messaging.mv.db"))).isTrue();
		try (ConfigurableApplicationContext second = start(path)) {
			client(second).get()
				.uri("/instances/{id}", id)
				.exchange()
				.expectStatus()
				.isOk()
				.expectBody()
				.jsonPath("$.name")
				.isEqualTo("persistent");
			client(second).get().uri("/info").exchange().expectBody().jsonPath("$.database").isEqualTo("h2");
		}
	}

	@Test
	void acceptsAPathRelativeToTheWorkingDirectory() throws IOException {
		Path relative = Path.of("target", "h2-relative-" + UUID.randomUUID());
		try (ConfigurableApplicationContext context = start(relative.resolve("messaging").toString())) {
			client(context).get().uri("/info").exchange().expectBody().jsonPath("$.database").isEqualTo("h2");
		}
		finally {
			FileSystemUtils.deleteRecursively(relative);
		}
	}

	@Test
	void refusesASecondProcessOnTheSameFile() throws Exception {
		String path = this.directory.resolve("data/messaging").toString();
		try (ConfigurableApplicationContext first = start(path);
				ServiceProcess second = ServiceProcess.start(this.directory, "--junction.messaging.db.h2-path=" + path,
						"--junction.messaging.admin-key=h2-file-admin-key")) {
			assertThat(second.awaitExit(Duration.ofSeconds(60))).isNotZero().isNotEqualTo(-1);
			assertThat(second.output()).contains("is in use by another process: only one instance runs on an H2 file")
				.contains("spring.r2dbc.url")
				.contains("Deprecated database settings, read for this release only: junction.messaging.db.h2-path");
			client(first).get().uri("/health").exchange().expectStatus().isOk().expectBody(Void.class);
		}
	}

	private static ConfigurableApplicationContext start(String h2Path) {
		return TestHttp.forgetOnClose(new SpringApplicationBuilder(MessagingApplication.class).run("--server.port=0",
				"--spring.r2dbc.url=r2dbc:h2:file:///" + h2Path, "--junction.messaging.admin-key=h2-file-admin-key"));
	}

	private static WebTestClient client(ConfigurableApplicationContext context) {
		int port = ((WebServerApplicationContext) context).getWebServer().getPort();
		return TestHttp.webTestClient(port).defaultHeader("x-api-key", "h2-file-admin-key").build();
	}

}
