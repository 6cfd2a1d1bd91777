package dev.junction.messaging.system;

import java.time.Duration;
import java.util.UUID;

import dev.junction.messaging.support.IntegrationTestSupport;
import dev.junction.messaging.support.TestHttp;
import org.junit.jupiter.api.Test;
import reactor.netty.http.client.HttpClient;
import tools.jackson.databind.JsonNode;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;

import static org.assertj.core.api.Assertions.assertThat;

class SystemIntegrationTests extends IntegrationTestSupport {

	@Test
	void healthReportsTheDatabaseCheckAndNoRedisWhenNoneIsConfigured() {
		JsonNode health = get(client(null), "/health", HttpStatus.OK);
		assertThat(health.get("status").asString()).isEqualTo("UP");
		assertThat(health.get("checks").get("database").get("status").asString()).isEqualTo("UP");
		assertThat(health.get("checks").get("database").get("latencyMs").asLong()).isNotNegative();
		assertThat(health.get("checks").has("redis")).isFalse();
	}

	@Test
	void infoNamesTheServiceAndItsUptime() {
		JsonNode info = get(client(null), "/info", HttpStatus.OK);
		assertThat(info.get("name").asString()).isEqualTo("junction-messaging");
		assertThat(info.get("version").asString()).isNotBlank();
		assertThat(info.get("uptimeSeconds").asLong()).isNotNegative();
		assertThat(info.get("database").asString()).isIn("postgresql", "h2");
	}

	@Test
	void compressesLargeResponsesForClientsThatAcceptGzip() {
		UUID chat = createChat(createInstance());
		for (int i = 0; i < 20; i++) {
			send(chat, "a message long enough to make the page bigger than one kilobyte " + i);
		}
		// A plain Reactor Netty client: it neither asks for nor undoes compression by
		// itself.
		HttpClient raw = TestHttp.client(this.port)
			.baseUrl("http://localhost:" + this.port + "/api/v2")
			.headers((headers) -> headers.set("x-api-key", ADMIN_KEY));
		Raw gzipped = fetch(raw.headers((h) -> h.set(HttpHeaders.ACCEPT_ENCODING, "gzip")), "/messages?chatId=" + chat);
		assertThat(gzipped.status()).isEqualTo(200);
		assertThat(gzipped.encoding()).isEqualTo("gzip");
		assertThat(gzipped.body()[0]).isEqualTo((byte) 0x1f);
		assertThat(gzipped.body()[1]).isEqualTo((byte) 0x8b);
		Raw plain = fetch(raw, "/messages?chatId=" + chat);
		assertThat(plain.encoding()).isNull();
		assertThat(new String(plain.body())).startsWith("{\"items\"");
		assertThat(plain.body().length).isGreaterThan(1024).isGreaterThan(gzipped.body().length);
		Raw small = fetch(raw.headers((h) -> h.set(HttpHeaders.ACCEPT_ENCODING, "gzip")), "/health");
		assertThat(small.encoding()).isNull();
		assertThat(new String(small.body())).startsWith("{\"status\"");
	}

	private static Raw fetch(HttpClient client, String path) {
		return client.get()
			.uri(path)
			.responseSingle((response, body) -> body.asByteArray()
				.map((bytes) -> new Raw(response.status().code(),
						response.responseHeaders().get(HttpHeaders.CONTENT_ENCODING), bytes)))
			.block(Duration.ofSeconds(20));
	}

	private record Raw(int status, String encoding, byte[] body) {
	}

	@Test
	void answersUnknownRoutesAndMethodsWithProblems() {
		JsonNode missing = this.admin.get()
			.uri("/nothing-here")
			.exchange()
			.expectStatus()
			.isNotFound()
			.expectHeader()
			.contentType(MediaType.APPLICATION_PROBLEM_JSON)
			.expectBody(JsonNode.class)
			.returnResult()
			.getResponseBody();
		assertProblem(missing, 404, "not-found");
		JsonNode method = this.admin.delete()
			.uri("/messages")
			.exchange()
			.expectStatus()
			.isEqualTo(HttpStatus.METHOD_NOT_ALLOWED)
			.expectBody(JsonNode.class)
			.returnResult()
			.getResponseBody();
		assertProblem(method, 405, "method-not-allowed");
		JsonNode mediaType = this.admin.post()
			.uri("/instances")
			.contentType(MediaType.TEXT_PLAIN)
			.bodyValue("name=x")
			.exchange()
			.expectStatus()
			.isEqualTo(HttpStatus.UNSUPPORTED_MEDIA_TYPE)
			.expectBody(JsonNode.class)
			.returnResult()
			.getResponseBody();
		assertProblem(mediaType, 415, "unsupported-media-type");
	}

}
