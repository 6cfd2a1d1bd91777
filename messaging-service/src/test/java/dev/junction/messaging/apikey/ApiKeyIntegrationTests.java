package dev.junction.messaging.apikey;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import dev.junction.messaging.support.IntegrationTestSupport;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.http.HttpStatus;
import org.springframework.test.web.reactive.server.WebTestClient;

import static org.assertj.core.api.Assertions.assertThat;

class ApiKeyIntegrationTests extends IntegrationTestSupport {

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
		this.admin.delete().uri("/api-keys/{id}", id(issued)).exchange().expectStatus().isNoContent();
		assertProblem(get(user, "/instances", HttpStatus.UNAUTHORIZED), 401, "unauthorized");
		JsonNode revoked = get("/api-keys/" + id(issued));
		assertThat(revoked.get("active").asBoolean()).isFalse();
		assertThat(revoked.get("revokedAt").isNull()).isFalse();
		assertThat(get("/api-keys?revoked=true&limit=100").get("items").valueStream().map(IntegrationTestSupport::id))
			.contains(id(issued));
		this.admin.delete().uri("/api-keys/{id}", UUID.randomUUID()).exchange().expectStatus().isNotFound();
	}

	@Test
	void enforcesScopes() {
		WebTestClient reader = client(createKey(List.of("read"), List.of()));
		get(reader, "/chats", HttpStatus.OK);
		assertProblem(post(reader, "/instances", Map.of("name", uniqueName("r"), "channel", "sms"), HttpStatus.FORBIDDEN),
				403, "forbidden");
		WebTestClient writer = client(createKey(List.of("write"), List.of()));
		post(writer, "/instances", Map.of("name", uniqueName("w"), "channel", "sms"), HttpStatus.CREATED);
		assertProblem(get(writer, "/api-keys", HttpStatus.FORBIDDEN), 403, "forbidden");
		assertProblem(post(writer, "/api-keys", Map.of("name", "x", "scopes", List.of("admin")), HttpStatus.FORBIDDEN), 403,
				"forbidden");
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
		assertProblem(post(scoped, "/instances", Map.of("name", uniqueName("s"), "channel", "sms"), HttpStatus.FORBIDDEN),
				403, "forbidden");
		assertProblem(get(scoped, "/messages?instanceId=" + theirs, HttpStatus.FORBIDDEN), 403, "forbidden");
		JsonNode instances = get(scoped, "/instances?limit=100", HttpStatus.OK);
		assertThat(instances.get("items").valueStream().map(IntegrationTestSupport::id)).containsExactly(mine);
		JsonNode messages = get(scoped, "/messages?limit=100", HttpStatus.OK);
		assertThat(messages.get("items").valueStream().map((m) -> m.get("instanceId").asString())).containsOnly(mine.toString());
		JsonNode events = get(scoped, "/events?limit=100", HttpStatus.OK);
		assertThat(events.get("items").valueStream().map((e) -> e.get("instanceId").asString())).containsOnly(mine.toString());
		post(scoped, "/messages", Map.of("chatId", myChat, "text", "allowed"), HttpStatus.CREATED);
	}

	@Test
	void rejectsUnknownAndReadOnlyFieldsNamingThem() {
		assertInvalidField(post(this.admin, "/api-keys", Map.of("name", "k", "scopes", List.of("read"), "active", false),
				HttpStatus.BAD_REQUEST), "active");
		assertInvalidField(post(this.admin, "/api-keys", Map.of("name", "k", "scopes", List.of("read"), "key",
				"jk_chosen-by-the-client"), HttpStatus.BAD_REQUEST), "key");
	}
}
