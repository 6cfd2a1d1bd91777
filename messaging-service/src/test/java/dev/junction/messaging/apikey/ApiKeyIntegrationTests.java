package dev.junction.messaging.apikey;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import dev.junction.messaging.support.IntegrationTestSupport;
import dev.junction.messaging.support.SseClient;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;

import static org.assertj.core.api.Assertions.assertThat;

class ApiKeyIntegrationTests extends IntegrationTestSupport {

	private static final Duration WAIT = Duration.ofSeconds(10);

	@Test
	void issuesAKeyShownOnceAndListsItWithoutTheSecret() {
		JsonNode issued = post(this.admin, "/api-keys", Map.of("name", "ci", "scopes", List.of("read")),
				HttpStatus.CREATED);
		String key = issued.get("key").asString();
		assertThat(key).startsWith("jk_").hasSizeGreaterThan(40);
		assertThat(issued.get("prefix").asString()).isEqualTo(key.substring(0, 10));
		assertThat(issued.get("scopes").get(0).asString()).isEqualTo("read");
		JsonNode fetched = get("/api-keys/" + id(issued));
		assertThat(fetched.has("key")).isFalse();
		assertThat(fetched.get("active").asBoolean()).isTrue();
		JsonNode listed = get("/api-keys?limit=100");
		assertThat(listed.toString()).doesNotContain(key);
		assertThat(listed.get("items").valueStream().map(IntegrationTestSupport::id)).contains(id(issued));
		get(client(key), "/instances", HttpStatus.OK);
	}

	@Test
	void rejectsRequestsWithoutAValidKey() {
		assertProblem(get(client(null), "/instances", HttpStatus.UNAUTHORIZED), 401, "unauthorized");
		assertProblem(get(client("jk_unknown"), "/instances", HttpStatus.UNAUTHORIZED), 401, "unauthorized");
		get(client(null), "/health", HttpStatus.OK);
		get(client(null), "/info", HttpStatus.OK);
	}

	@Test
	void revokedKeyStopsWorkingAtOnce() {
		JsonNode issued = post(this.admin, "/api-keys", Map.of("name", "short-lived", "scopes", List.of("write")),
				HttpStatus.CREATED);
		WebTestClient user = client(issued.get("key").asString());
		get(user, "/instances", HttpStatus.OK); // now cached
		this.admin.delete()
			.uri("/api-keys/{id}", id(issued))
			.exchange()
			.expectStatus()
			.isNoContent()
			.expectBody()
			.isEmpty();
		assertProblem(get(user, "/instances", HttpStatus.UNAUTHORIZED), 401, "unauthorized");
		JsonNode revoked = get("/api-keys/" + id(issued));
		assertThat(revoked.get("active").asBoolean()).isFalse();
		assertThat(revoked.get("revokedAt").isNull()).isFalse();
		assertThat(get("/api-keys?revoked=true&limit=100").get("items").valueStream().map(IntegrationTestSupport::id))
			.contains(id(issued));
		this.admin.delete()
			.uri("/api-keys/{id}", UUID.randomUUID())
			.exchange()
			.expectStatus()
			.isNotFound()
			.expectBody(Void.class);
	}

	@Test
	void enforcesScopes() {
		WebTestClient reader = client(createKey(List.of("read"), List.of()));
		get(reader, "/chats", HttpStatus.OK);
		assertProblem(
				post(reader, "/instances", Map.of("name", uniqueName("r"), "channel", "sms"), HttpStatus.FORBIDDEN),
				403, "forbidden");
		WebTestClient writer = client(createKey(List.of("write"), List.of()));
		post(writer, "/instances", Map.of("name", uniqueName("w"), "channel", "sms"), HttpStatus.CREATED);
		assertProblem(get(writer, "/api-keys", HttpStatus.FORBIDDEN), 403, "forbidden");
		assertProblem(post(writer, "/api-keys", Map.of("name", "x", "scopes", List.of("admin")), HttpStatus.FORBIDDEN),
				403, "forbidden");
		JsonNode invalid = post(this.admin, "/api-keys", Map.of("name", "x", "scopes", List.of("root")),
				HttpStatus.BAD_REQUEST);
		assertThat(invalid.get("field").asString()).startsWith("scopes");
		assertThat(post(this.admin, "/api-keys", Map.of("name", "x", "scopes", List.of()), HttpStatus.BAD_REQUEST)
			.get("field")
			.asString()).isEqualTo("scopes");
	}

	@Test
	void restrictsKeysToTheirInstances() {
		UUID mine = createInstance();
		UUID theirs = createInstance();
		UUID myChat = createChat(mine);
		UUID theirChat = createChat(theirs);
		UUID theirMessage = id(send(theirChat, "private"));
		send(myChat, "mine");
		WebTestClient scoped = client(createKey(List.of("write"), List.of(mine)));
		get(scoped, "/instances/" + mine, HttpStatus.OK);
		assertProblem(get(scoped, "/instances/" + theirs, HttpStatus.FORBIDDEN), 403, "forbidden");
		assertProblem(get(scoped, "/chats/" + theirChat, HttpStatus.FORBIDDEN), 403, "forbidden");
		get(scoped, "/messages/" + theirMessage, HttpStatus.NOT_FOUND);
		assertProblem(post(scoped, "/messages", Map.of("chatId", theirChat, "text", "x"), HttpStatus.FORBIDDEN), 403,
				"forbidden");
		assertProblem(
				post(scoped, "/instances", Map.of("name", uniqueName("s"), "channel", "sms"), HttpStatus.FORBIDDEN),
				403, "forbidden");
		assertProblem(get(scoped, "/messages?instanceId=" + theirs, HttpStatus.FORBIDDEN), 403, "forbidden");
		JsonNode instances = get(scoped, "/instances?limit=100", HttpStatus.OK);
		assertThat(instances.get("items").valueStream().map(IntegrationTestSupport::id)).containsExactly(mine);
		JsonNode messages = get(scoped, "/messages?limit=100", HttpStatus.OK);
		assertThat(messages.get("items").valueStream().map((m) -> m.get("instanceId").asString()))
			.containsOnly(mine.toString());
		JsonNode events = get(scoped, "/events?limit=100", HttpStatus.OK);
		assertThat(events.get("items").valueStream().map((e) -> e.get("instanceId").asString()))
			.containsOnly(mine.toString());
		post(scoped, "/messages", Map.of("chatId", myChat, "text", "allowed"), HttpStatus.CREATED);
	}

	@Test
	void rejectsUnknownAndReadOnlyFieldsNamingThem() {
		assertInvalidField(post(this.admin, "/api-keys",
				Map.of("name", "k", "scopes", List.of("read"), "active", false), HttpStatus.BAD_REQUEST), "active");
		assertInvalidField(post(this.admin, "/api-keys",
				Map.of("name", "k", "scopes", List.of("read"), "key", "jk_chosen-by-the-client"),
				HttpStatus.BAD_REQUEST), "key");
	}

	@Test
	void aKeyCreatesOnlyKeysWithinItsOwnScopesAndInstances() {
		UUID mine = createInstance();
		UUID theirs = createInstance();
		WebTestClient scopedAdmin = client(createKey(List.of("admin"), List.of(mine)));
		assertProblem(
				post(scopedAdmin, "/api-keys", Map.of("name", "all", "scopes", List.of("read")), HttpStatus.FORBIDDEN),
				403, "forbidden");
		assertProblem(post(scopedAdmin, "/api-keys",
				Map.of("name", "theirs", "scopes", List.of("read"), "instanceIds", List.of(theirs)),
				HttpStatus.FORBIDDEN), 403, "forbidden");
		assertProblem(post(scopedAdmin, "/api-keys",
				Map.of("name", "both", "scopes", List.of("read"), "instanceIds", List.of(mine, theirs)),
				HttpStatus.FORBIDDEN), 403, "forbidden");
		JsonNode issued = post(scopedAdmin, "/api-keys",
				Map.of("name", "mine", "scopes", List.of("admin"), "instanceIds", List.of(mine)), HttpStatus.CREATED);
		WebTestClient child = client(issued.get("key").asString());
		get(child, "/instances/" + mine, HttpStatus.OK);
		assertProblem(get(child, "/instances/" + theirs, HttpStatus.FORBIDDEN), 403, "forbidden");
		WebTestClient writer = client(createKey(List.of("write"), List.of()));
		assertProblem(post(writer, "/api-keys", Map.of("name", "up", "scopes", List.of("admin")), HttpStatus.FORBIDDEN),
				403, "forbidden");
	}

	@Test
	void aKeyListsAndGetsOnlyKeysWithinItsOwnInstances() {
		UUID mine = createInstance();
		UUID theirs = createInstance();
		String scopedAdminKey = createKey(List.of("admin"), List.of(mine));
		WebTestClient scopedAdmin = client(scopedAdminKey);
		UUID sibling = keyId(createKey(List.of("read"), List.of(mine)));
		UUID spanning = keyId(createKey(List.of("read"), List.of(mine, theirs)));
		UUID other = keyId(createKey(List.of("read"), List.of(theirs)));
		UUID unrestricted = keyId(createKey(List.of("admin"), List.of()));
		List<UUID> listed = get(scopedAdmin, "/api-keys?limit=100", HttpStatus.OK).get("items")
			.valueStream()
			.map(IntegrationTestSupport::id)
			.toList();
		assertThat(listed).contains(sibling, keyId(scopedAdminKey)).doesNotContain(spanning, other, unrestricted);
		assertThat(get(scopedAdmin, "/api-keys?instanceId=" + mine + "&limit=100", HttpStatus.OK).get("items")
			.valueStream()
			.map(IntegrationTestSupport::id)).contains(sibling).doesNotContain(spanning, other, unrestricted);
		assertProblem(get(scopedAdmin, "/api-keys?instanceId=" + theirs, HttpStatus.FORBIDDEN), 403, "forbidden");
		get(scopedAdmin, "/api-keys/" + sibling, HttpStatus.OK);
		for (UUID hidden : List.of(spanning, other, unrestricted)) {
			assertProblem(get(scopedAdmin, "/api-keys/" + hidden, HttpStatus.FORBIDDEN), 403, "forbidden");
		}
		assertThat(get("/api-keys?instanceId=" + theirs + "&limit=100").get("items")
			.valueStream()
			.map(IntegrationTestSupport::id)).contains(spanning, other).doesNotContain(sibling, unrestricted);
	}

	@Test
	void aKeyRevokesOnlyKeysWithinItsOwnInstancesAndOnlyAnUnrestrictedAdminRevokesUnrestrictedKeys() {
		UUID mine = createInstance();
		UUID theirs = createInstance();
		WebTestClient scopedAdmin = client(createKey(List.of("admin"), List.of(mine)));
		String unrestrictedKey = createKey(List.of("admin"), List.of());
		UUID other = keyId(createKey(List.of("read"), List.of(theirs)));
		for (UUID protectedKey : List.of(keyId(unrestrictedKey), other)) {
			JsonNode problem = scopedAdmin.delete()
				.uri("/api-keys/{id}", protectedKey)
				.exchange()
				.expectStatus()
				.isForbidden()
				.expectHeader()
				.contentType(MediaType.APPLICATION_PROBLEM_JSON)
				.expectBody(JsonNode.class)
				.returnResult()
				.getResponseBody();
			assertProblem(problem, 403, "forbidden");
		}
		get(client(unrestrictedKey), "/api-keys?limit=1", HttpStatus.OK);
		assertThat(get("/api-keys/" + other).get("active").asBoolean()).isTrue();
		UUID sibling = keyId(createKey(List.of("read"), List.of(mine)));
		scopedAdmin.delete()
			.uri("/api-keys/{id}", sibling)
			.exchange()
			.expectStatus()
			.isNoContent()
			.expectBody()
			.isEmpty();
		client(unrestrictedKey).delete()
			.uri("/api-keys/{id}", other)
			.exchange()
			.expectStatus()
			.isNoContent()
			.expectBody()
			.isEmpty();
	}

	@Test
	void aRestrictedKeyStreamsOnlyItsOwnInstancesEvents() throws Exception {
		UUID mine = createInstance();
		UUID theirs = createInstance();
		UUID myChat = createChat(mine);
		UUID theirChat = createChat(theirs);
		String key = createKey(List.of("read"), List.of(mine));
		JsonNode refused = answer(
				client(key).get().uri("/events/stream?instanceId={id}", theirs).accept(MediaType.TEXT_EVENT_STREAM),
				HttpStatus.FORBIDDEN);
		assertProblem(refused, 403, "forbidden");
		try (SseClient stream = SseClient.open(this.port, "/events/stream", key)) {
			assertThat(stream.awaitLine(":connected"::equals, WAIT)).isTrue();
			send(theirChat, "not yours");
			send(myChat, "yours");
			assertThat(stream.awaitLine((line) -> line.contains("\"yours\""), WAIT)).isTrue();
			assertThat(stream.lines()).noneMatch((line) -> line.contains("not yours"));
		}
	}

	@Test
	void revokingAKeyEndsItsOpenEventStreamsAtOnce() throws Exception {
		UUID instance = createInstance();
		UUID chat = createChat(instance);
		String key = createKey(List.of("read"), List.of(instance));
		try (SseClient stream = SseClient.open(this.port, "/events/stream?instanceId=" + instance, key);
				SseClient other = SseClient.open(this.port, "/events/stream?instanceId=" + instance, ADMIN_KEY)) {
			assertThat(stream.status()).isEqualTo(200);
			assertThat(stream.awaitLine(":connected"::equals, WAIT)).isTrue();
			assertThat(other.awaitLine(":connected"::equals, WAIT)).isTrue();
			send(chat, "before");
			assertThat(stream.awaitLine((line) -> line.contains("\"before\""), WAIT)).isTrue();
			this.admin.delete()
				.uri("/api-keys/{id}", keyId(key))
				.exchange()
				.expectStatus()
				.isNoContent()
				.expectBody()
				.isEmpty();
			assertThat(stream.awaitEnd(Duration.ofSeconds(5))).as("stream ended at once, not at the minute's recheck")
				.isTrue();
			assertThat(stream.lines()).contains(":closed: API key revoked");
			send(chat, "after");
			assertThat(other.awaitLine((line) -> line.contains("\"after\""), WAIT)).isTrue();
			assertThat(stream.lines()).noneMatch((line) -> line.contains("\"after\""));
		}
		try (SseClient again = SseClient.open(this.port, "/events/stream", key)) {
			assertThat(again.status()).isEqualTo(401);
		}
	}

	@Test
	void aKeyStopsWorkingAtItsExpiryAndItsStreamsEndThen() throws Exception {
		// A whole second: the tests' clock ticks in seconds, so it passes this instant
		// exactly when real time does.
		Instant expiresAt = Instant.now().plusSeconds(3).truncatedTo(ChronoUnit.SECONDS);
		JsonNode issued = post(this.admin, "/api-keys",
				Map.of("name", "temporary", "scopes", List.of("read"), "expiresAt", expiresAt.toString()),
				HttpStatus.CREATED);
		assertThat(Instant.parse(issued.get("expiresAt").asString())).isEqualTo(expiresAt);
		String key = issued.get("key").asString();
		get(client(key), "/instances?limit=1", HttpStatus.OK);
		try (SseClient stream = SseClient.open(this.port, "/events/stream", key)) {
			assertThat(stream.awaitLine(":connected"::equals, WAIT)).isTrue();
			assertThat(stream.awaitEnd(Duration.ofSeconds(10))).as("stream ended at expiry").isTrue();
			assertThat(Instant.now()).isAfterOrEqualTo(expiresAt);
			assertThat(stream.lines()).contains(":closed: API key expired");
		}
		JsonNode refused = get(client(key), "/instances?limit=1", HttpStatus.UNAUTHORIZED);
		assertThat(assertProblem(refused, 401, "unauthorized").get("detail").asString()).contains("expired");
		assertThat(get("/api-keys/" + id(issued)).get("active").asBoolean()).isFalse();
	}

	@Test
	void rejectsAnExpiryInThePastAndKeysThatOutliveTheirIssuer() {
		JsonNode past = post(this.admin, "/api-keys", Map.of("name", "late", "scopes", List.of("read"), "expiresAt",
				Instant.now().minusSeconds(60).toString()), HttpStatus.BAD_REQUEST);
		assertThat(assertProblem(past, 400, "invalid-request").get("field").asString()).isEqualTo("expiresAt");
		JsonNode malformed = post(this.admin, "/api-keys",
				Map.of("name", "late", "scopes", List.of("read"), "expiresAt", "tomorrow"), HttpStatus.BAD_REQUEST);
		assertThat(malformed.get("field").asString()).isEqualTo("expiresAt");
		Instant expiresAt = Instant.now().plus(Duration.ofHours(1));
		WebTestClient expiring = client(post(this.admin, "/api-keys",
				Map.of("name", "expiring", "scopes", List.of("admin"), "expiresAt", expiresAt.toString()),
				HttpStatus.CREATED)
			.get("key")
			.asString());
		assertProblem(
				post(expiring, "/api-keys", Map.of("name", "forever", "scopes", List.of("read")), HttpStatus.FORBIDDEN),
				403, "forbidden");
		assertProblem(post(expiring, "/api-keys",
				Map.of("name", "longer", "scopes", List.of("read"), "expiresAt", expiresAt.plusSeconds(60).toString()),
				HttpStatus.FORBIDDEN), 403, "forbidden");
		post(expiring, "/api-keys", Map.of("name", "shorter", "scopes", List.of("read"), "expiresAt",
				expiresAt.minusSeconds(60).toString()), HttpStatus.CREATED);
	}

	/** The id of the key {@code rawKey}, looked up by its prefix. */
	private UUID keyId(String rawKey) {
		return get(client(ADMIN_KEY), "/api-keys?limit=100", HttpStatus.OK).get("items")
			.valueStream()
			.filter((key) -> rawKey.startsWith(key.get("prefix").asString()))
			.map(IntegrationTestSupport::id)
			.findFirst()
			.orElseThrow();
	}

}
