package dev.junction.messaging.chat;

import java.util.Map;
import java.util.UUID;

import dev.junction.messaging.support.IntegrationTestSupport;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;

import static org.assertj.core.api.Assertions.assertThat;

class ChatApiIntegrationTests extends IntegrationTestSupport {

	@Test
	void createsAChatAndRecordsTheEvent() {
		UUID instance = createInstance();
		JsonNode chat = post(this.admin, "/chats",
				Map.of("instanceId", instance, "remoteId", "+15550100", "name", "Alice", "type", "group"),
				HttpStatus.CREATED);
		assertThat(chat.get("instanceId").asString()).isEqualTo(instance.toString());
		assertThat(chat.get("type").asString()).isEqualTo("group");
		assertThat(chat.get("messageCount").asLong()).isZero();
		assertThat(chat.get("lastMessageAt").isNull()).isTrue();
		assertThat(get("/chats/" + id(chat)).get("name").asString()).isEqualTo("Alice");
		JsonNode events = get("/events?instanceId=" + instance + "&type=chat.created");
		assertThat(events.get("items").get(0).get("subjectId").asString()).isEqualTo(id(chat).toString());
		assertThat(events.get("items").get(0).get("payload").get("remoteId").asString()).isEqualTo("+15550100");
	}

	@Test
	void keepsCountersInStepWithMessages() {
		UUID chat = createChat(createInstance());
		send(chat, "out one");
		post(this.admin, "/messages", Map.of("chatId", chat, "text", "in one", "direction", "inbound"),
				HttpStatus.CREATED);
		JsonNode last = post(this.admin, "/messages", Map.of("chatId", chat, "text", "in two", "direction", "inbound"),
				HttpStatus.CREATED);
		JsonNode counted = get("/chats/" + chat);
		assertThat(counted.get("messageCount").asLong()).isEqualTo(3);
		assertThat(counted.get("unreadCount").asLong()).isEqualTo(2);
		assertThat(counted.get("lastMessageAt").asString()).isEqualTo(last.get("timestamp").asString());
		JsonNode read = post(this.admin, "/chats/" + chat + "/read", Map.of(), HttpStatus.OK);
		assertThat(read.get("unreadCount").asLong()).isZero();
		assertThat(read.get("messageCount").asLong()).isEqualTo(3);
	}

	@Test
	void archivesPinsMutesAndRenames() {
		UUID instance = createInstance();
		UUID chat = createChat(instance);
		assertThat(post(this.admin, "/chats/" + chat + "/archive", Map.of(), HttpStatus.OK).get("archived").asBoolean())
			.isTrue();
		assertThat(post(this.admin, "/chats/" + chat + "/pin", Map.of(), HttpStatus.OK).get("pinned").asBoolean())
			.isTrue();
		assertThat(post(this.admin, "/chats/" + chat + "/mute", Map.of(), HttpStatus.OK).get("muted").asBoolean())
			.isTrue();
		assertThat(post(this.admin, "/chats/" + chat + "/unmute", Map.of(), HttpStatus.OK).get("muted").asBoolean())
			.isFalse();
		JsonNode renamed = this.admin.patch()
			.uri("/chats/{id}", chat)
			.contentType(MediaType.APPLICATION_JSON)
			.bodyValue(Map.of("name", "Renamed"))
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody(JsonNode.class)
			.returnResult()
			.getResponseBody();
		assertThat(renamed.get("name").asString()).isEqualTo("Renamed");
		assertThat(renamed.get("archived").asBoolean()).isTrue();
		JsonNode updates = get("/events?instanceId=" + instance + "&type=chat.updated&limit=10");
		assertThat(updates.get("items").size()).isEqualTo(5);
		assertThat(updates.get("items").get(0).get("payload").get("change").asString()).isEqualTo("rename");
		this.admin.post()
			.uri("/chats/{id}/explode", chat)
			.exchange()
			.expectStatus()
			.isNotFound()
			.expectBody(Void.class);
	}

	@Test
	void listsChatsWithFilters() {
		UUID instance = createInstance();
		UUID archived = createChat(instance);
		UUID group = id(post(this.admin, "/chats", Map.of("instanceId", instance, "remoteId", "g1", "type", "group"),
				HttpStatus.CREATED));
		UUID plain = createChat(instance);
		createChat(createInstance());
		post(this.admin, "/chats/" + archived + "/archive", Map.of(), HttpStatus.OK);
		assertThat(ids(get("/chats?instanceId=" + instance))).containsExactly(plain, group, archived);
		assertThat(ids(get("/chats?instanceId=" + instance + "&archived=true"))).containsExactly(archived);
		assertThat(ids(get("/chats?instanceId=" + instance + "&archived=false"))).containsExactly(plain, group);
		assertThat(ids(get("/chats?instanceId=" + instance + "&type=group"))).containsExactly(group);
		JsonNode first = get("/chats?instanceId=" + instance + "&limit=2");
		assertThat(first.get("meta").get("hasMore").asBoolean()).isTrue();
		JsonNode second = get(
				"/chats?instanceId=" + instance + "&limit=2&cursor=" + first.get("meta").get("nextCursor").asString());
		assertThat(ids(second)).containsExactly(archived);
		assertThat(second.get("meta").get("hasMore").asBoolean()).isFalse();
		assertThat(second.get("meta").get("nextCursor").isNull()).isTrue();
	}

	@Test
	void rejectsDuplicatesUnknownInstancesAndUnknownChats() {
		UUID instance = createInstance();
		post(this.admin, "/chats", Map.of("instanceId", instance, "remoteId", "same"), HttpStatus.CREATED);
		assertProblem(
				post(this.admin, "/chats", Map.of("instanceId", instance, "remoteId", "same"), HttpStatus.CONFLICT),
				409, "conflict");
		JsonNode unknown = post(this.admin, "/chats", Map.of("instanceId", UUID.randomUUID(), "remoteId", "x"),
				HttpStatus.BAD_REQUEST);
		assertThat(unknown.get("field").asString()).isEqualTo("instanceId");
		JsonNode missing = post(this.admin, "/chats", Map.of("instanceId", instance), HttpStatus.BAD_REQUEST);
		assertThat(missing.get("field").asString()).isEqualTo("remoteId");
		assertProblem(get(this.admin, "/chats/" + UUID.randomUUID(), HttpStatus.NOT_FOUND), 404, "not-found");
		assertProblem(post(this.admin, "/chats/" + UUID.randomUUID() + "/pin", Map.of(), HttpStatus.NOT_FOUND), 404,
				"not-found");
	}

	private static java.util.List<UUID> ids(JsonNode page) {
		return page.get("items").valueStream().map(IntegrationTestSupport::id).toList();
	}

	@Test
	void rejectsUnknownAndReadOnlyFieldsNamingThem() {
		UUID instance = createInstance();
		UUID chat = createChat(instance);
		assertInvalidField(patch(this.admin, "/chats/" + chat, Map.of("archived", true), HttpStatus.BAD_REQUEST),
				"archived");
		assertInvalidField(
				patch(this.admin, "/chats/" + chat, Map.of("name", "n", "pinned", true), HttpStatus.BAD_REQUEST),
				"pinned");
		assertInvalidField(post(this.admin, "/chats",
				Map.of("instanceId", instance, "remoteId", uniqueName("r"), "messageCount", 5), HttpStatus.BAD_REQUEST),
				"messageCount");
		JsonNode unchanged = get("/chats/" + chat);
		assertThat(unchanged.get("archived").asBoolean()).isFalse();
		assertThat(unchanged.get("pinned").asBoolean()).isFalse();
	}

}
