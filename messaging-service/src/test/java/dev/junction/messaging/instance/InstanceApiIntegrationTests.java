package dev.junction.messaging.instance;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import dev.junction.messaging.support.IntegrationTestSupport;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;

import static org.assertj.core.api.Assertions.assertThat;

class InstanceApiIntegrationTests extends IntegrationTestSupport {

	@Test
	void createsAndReadsAnInstance() {
		String name = uniqueName("shop");
		this.admin.post()
			.uri("/instances")
			.contentType(MediaType.APPLICATION_JSON)
			.bodyValue(Map.of("name", name, "channel", "telegram", "settings", Map.of("token", "t-1", "retries", 3)))
			.exchange()
			.expectStatus()
			.isCreated()
			.expectHeader()
			.valueMatches("Location", "/api/v2/instances/[0-9a-f-]{36}")
			.expectBody()
			.jsonPath("$.name")
			.isEqualTo(name)
			.jsonPath("$.channel")
			.isEqualTo("telegram")
			.jsonPath("$.status")
			.isEqualTo("disconnected")
			.jsonPath("$.settings.token")
			.isEqualTo("t-1")
			.jsonPath("$.settings.retries")
			.isEqualTo(3);
		JsonNode listed = get("/instances?channel=telegram&limit=100");
		assertThat(listed.get("items").valueStream().map((item) -> item.get("name").asString())).contains(name);
		listed.get("items").forEach((item) -> assertThat(item.get("channel").asString()).isEqualTo("telegram"));
	}

	@Test
	void updatesNameStatusAndSettingsAndRecordsEvents() {
		UUID id = createInstance();
		String name = uniqueName("renamed");
		JsonNode updated = this.admin.patch()
			.uri("/instances/{id}", id)
			.contentType(MediaType.APPLICATION_JSON)
			.bodyValue(Map.of("name", name, "status", "connected", "settings", Map.of("a", 1)))
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody(JsonNode.class)
			.returnResult()
			.getResponseBody();
		assertThat(updated.get("name").asString()).isEqualTo(name);
		assertThat(updated.get("status").asString()).isEqualTo("connected");
		assertThat(get("/instances/" + id).get("settings").get("a").asInt()).isEqualTo(1);
		List<String> types = new ArrayList<>();
		get("/events?instanceId=" + id).get("items").forEach((event) -> types.add(event.get("type").asString()));
		assertThat(types).containsExactly("instance.connected", "instance.updated", "instance.created");
	}

	@Test
	void putIsAnAliasOfPatch() {
		UUID id = createInstance();
		this.admin.put()
			.uri("/instances/{id}", id)
			.contentType(MediaType.APPLICATION_JSON)
			.bodyValue(Map.of("status", "error"))
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.status")
			.isEqualTo("error");
	}

	@Test
	void deletesAnInstanceWithItsChatsAndMessages() {
		UUID id = createInstance();
		UUID chat = createChat(id);
		UUID message = id(send(chat, "bye"));
		this.admin.delete().uri("/instances/{id}", id).exchange().expectStatus().isNoContent().expectBody().isEmpty();
		assertProblem(get(this.admin, "/instances/" + id, HttpStatus.NOT_FOUND), 404, "not-found");
		assertProblem(get(this.admin, "/chats/" + chat, HttpStatus.NOT_FOUND), 404, "not-found");
		assertProblem(get(this.admin, "/messages/" + message, HttpStatus.NOT_FOUND), 404, "not-found");
		assertThat(get("/events?instanceId=" + id + "&type=instance.deleted").get("items").size()).isEqualTo(1);
		this.admin.delete().uri("/instances/{id}", id).exchange().expectStatus().isNotFound().expectBody(Void.class);
	}

	@Test
	void rejectsADuplicateNameWith409() {
		String name = uniqueName("dup");
		post(this.admin, "/instances", Map.of("name", name, "channel", "sms"), HttpStatus.CREATED);
		assertProblem(post(this.admin, "/instances", Map.of("name", name, "channel", "slack"), HttpStatus.CONFLICT),
				409, "conflict");
		UUID other = createInstance();
		JsonNode problem = this.admin.patch()
			.uri("/instances/{id}", other)
			.contentType(MediaType.APPLICATION_JSON)
			.bodyValue(Map.of("name", name))
			.exchange()
			.expectStatus()
			.isEqualTo(HttpStatus.CONFLICT)
			.expectBody(JsonNode.class)
			.returnResult()
			.getResponseBody();
		assertProblem(problem, 409, "conflict");
	}

	@Test
	void rejectsInvalidFieldsNamingTheField() {
		JsonNode blank = post(this.admin, "/instances", Map.of("name", "", "channel", "sms"), HttpStatus.BAD_REQUEST);
		assertThat(assertProblem(blank, 400, "invalid-request").get("field").asString()).isEqualTo("name");
		JsonNode channel = post(this.admin, "/instances", Map.of("name", uniqueName("x"), "channel", "pigeon"),
				HttpStatus.BAD_REQUEST);
		assertThat(channel.get("field").asString()).isEqualTo("channel");
		assertThat(channel.get("detail").asString()).contains("whatsapp");
		JsonNode missing = post(this.admin, "/instances", Map.of("name", uniqueName("x")), HttpStatus.BAD_REQUEST);
		assertThat(missing.get("field").asString()).isEqualTo("channel");
		JsonNode filter = get(this.admin, "/instances?status=sleepy", HttpStatus.BAD_REQUEST);
		assertThat(filter.get("field").asString()).isEqualTo("status");
	}

	@Test
	void rejectsMalformedJsonAndBadIds() {
		JsonNode malformed = this.admin.post()
			.uri("/instances")
			.contentType(MediaType.APPLICATION_JSON)
			.bodyValue("{\"name\": ")
			.exchange()
			.expectStatus()
			.isBadRequest()
			.expectHeader()
			.contentType(MediaType.APPLICATION_PROBLEM_JSON)
			.expectBody(JsonNode.class)
			.returnResult()
			.getResponseBody();
		assertProblem(malformed, 400, "invalid-request");
		JsonNode badId = get(this.admin, "/instances/not-a-uuid", HttpStatus.BAD_REQUEST);
		assertThat(assertProblem(badId, 400, "invalid-request").get("field").asString()).isEqualTo("id");
		assertProblem(get(this.admin, "/instances/" + UUID.randomUUID(), HttpStatus.NOT_FOUND), 404, "not-found");
	}

	@Test
	void rejectsUnknownAndReadOnlyFieldsNamingThem() {
		UUID instance = createInstance();
		JsonNode status = post(this.admin, "/instances",
				Map.of("name", uniqueName("s"), "channel", "sms", "status", "connected"), HttpStatus.BAD_REQUEST);
		assertThat(assertInvalidField(status, "status").get("detail").asString()).contains("channel", "name",
				"settings");
		assertInvalidField(
				patch(this.admin, "/instances/" + instance, Map.of("channel", "telegram"), HttpStatus.BAD_REQUEST),
				"channel");
		assertInvalidField(patch(this.admin, "/instances/" + instance,
				Map.of("name", uniqueName("r"), "id", UUID.randomUUID()), HttpStatus.BAD_REQUEST), "id");
		JsonNode unchanged = get("/instances/" + instance);
		assertThat(unchanged.get("channel").asString()).isEqualTo("whatsapp");
		assertThat(unchanged.get("id").asString()).isEqualTo(instance.toString());
	}

}
