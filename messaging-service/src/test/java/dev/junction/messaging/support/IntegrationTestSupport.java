package dev.junction.messaging.support;

import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.BeforeEach;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * Base of the integration tests: the service on a random port, on the database of this
 * run ({@link TestDatabase}), with a clock that ties timestamps, fast webhook retries and
 * rate limits high enough not to interfere. Tests share the context and the database, so
 * each creates its own instances and never assumes an empty table.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "junction.messaging.admin-key=" + IntegrationTestSupport.ADMIN_KEY,
				"junction.messaging.rate-limit.messages=100000", "junction.messaging.rate-limit.events=100000",
				"junction.messaging.rate-limit.instances=100000", "junction.messaging.rate-limit.general=100000",
				"junction.messaging.webhooks.max-attempts=3", "junction.messaging.webhooks.base-delay=50ms",
				"junction.messaging.webhooks.max-delay=200ms", "junction.messaging.webhooks.timeout=5s",
				"logging.level.io.zonky.test=warn" })
@Import(TickingClockConfiguration.class)
public abstract class IntegrationTestSupport {

	/** The admin key every test context is configured with. */
	public static final String ADMIN_KEY = "test-admin-key-0123456789";

	private static final AtomicInteger names = new AtomicInteger();

	@LocalServerPort
	protected int port;

	/** A client authenticated with the admin key. */
	protected WebTestClient admin;

	@DynamicPropertySource
	static void database(DynamicPropertyRegistry registry) {
		TestDatabase.register(registry);
	}

	@BeforeEach
	void createClient() {
		this.admin = client(ADMIN_KEY);
	}

	/** A client for the API, authenticated with {@code apiKey} (none when null). */
	protected WebTestClient client(String apiKey) {
		WebTestClient.Builder builder = TestHttp.webTestClient(this.port);
		if (apiKey != null) {
			builder.defaultHeader("x-api-key", apiKey);
		}
		return builder.build();
	}

	/** The Prometheus scrape, fetched without an API key as a Prometheus server would. */
	protected String prometheus() {
		return client(null).get()
			.uri("http://127.0.0.1:" + this.port + "/actuator/prometheus")
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody(String.class)
			.returnResult()
			.getResponseBody();
	}

	/** A name no other test uses. */
	protected static String uniqueName(String prefix) {
		return prefix + "-" + names.incrementAndGet() + "-" + UUID.randomUUID().toString().substring(0, 8);
	}

	protected UUID createInstance() {
		return id(post(this.admin, "/instances", Map.of("name", uniqueName("instance"), "channel", "whatsapp"),
				HttpStatus.CREATED));
	}

	protected UUID createChat(UUID instanceId) {
		return id(post(this.admin, "/chats", Map.of("instanceId", instanceId, "remoteId", uniqueName("remote")),
				HttpStatus.CREATED));
	}

	protected JsonNode send(UUID chatId, String text) {
		return post(this.admin, "/messages", Map.of("chatId", chatId, "text", text), HttpStatus.CREATED);
	}

	/**
	 * Issues a key with {@code scopes} limited to {@code instanceIds} (none: all);
	 * returns the raw key.
	 */
	protected String createKey(List<String> scopes, List<UUID> instanceIds) {
		JsonNode key = post(this.admin, "/api-keys",
				Map.of("name", uniqueName("key"), "scopes", scopes, "instanceIds", instanceIds), HttpStatus.CREATED);
		return key.get("key").asString();
	}

	/**
	 * POSTs {@code body} as JSON (a string is sent as it is); the answer must have
	 * {@code expected} status.
	 */
	protected JsonNode post(WebTestClient client, String path, Object body, HttpStatus expected) {
		return answer(client.post().uri(path).contentType(MediaType.APPLICATION_JSON).bodyValue(body), expected);
	}

	protected JsonNode patch(WebTestClient client, String path, Object body, HttpStatus expected) {
		return answer(client.patch().uri(path).contentType(MediaType.APPLICATION_JSON).bodyValue(body), expected);
	}

	/** The JSON answer to {@code request}, which must have {@code expected} status. */
	protected static JsonNode answer(WebTestClient.RequestHeadersSpec<?> request, HttpStatus expected) {
		return request.exchange()
			.expectStatus()
			.isEqualTo(expected)
			.expectBody(JsonNode.class)
			.returnResult()
			.getResponseBody();
	}

	/** Asserts {@code problem} is a 400 naming {@code field} as the one at fault. */
	protected static JsonNode assertInvalidField(JsonNode problem, String field) {
		assertProblem(problem, 400, "invalid-request");
		org.assertj.core.api.Assertions.assertThat(problem.get("field").asString()).isEqualTo(field);
		return problem;
	}

	protected JsonNode get(WebTestClient client, String path, HttpStatus expected) {
		return answer(client.get().uri(path), expected);
	}

	protected JsonNode get(String path) {
		return get(this.admin, path, HttpStatus.OK);
	}

	/**
	 * Asserts {@code problem} is a problem document of {@code status} with its stable
	 * type.
	 */
	protected static JsonNode assertProblem(JsonNode problem, int status, String type) {
		org.assertj.core.api.Assertions.assertThat(problem.get("status").asInt()).isEqualTo(status);
		org.assertj.core.api.Assertions.assertThat(problem.get("type").asString())
			.isEqualTo("https://junction.dev/problems/" + type);
		org.assertj.core.api.Assertions.assertThat(problem.get("detail").asString()).isNotBlank();
		org.assertj.core.api.Assertions.assertThat(problem.toString())
			.doesNotContain("Exception")
			.doesNotContain("\tat ");
		return problem;
	}

	protected static UUID id(JsonNode node) {
		return UUID.fromString(node.get("id").asString());
	}

}
