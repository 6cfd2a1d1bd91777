package dev.junction.messaging.message;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import dev.junction.messaging.support.IntegrationTestSupport;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;

import static org.assertj.core.api.Assertions.assertThat;

class MessageApiIntegrationTests extends IntegrationTestSupport {

	@Test
	void sendsATextMessage() {
		UUID instance = createInstance();
		UUID chat = createChat(instance);
		JsonNode message = this.admin.post()
			.uri("/messages")
			.contentType(MediaType.APPLICATION_JSON)
			.bodyValue(Map.of("chatId", chat, "text", "hello there"))
			.exchange()
			.expectStatus()
			.isCreated()
			.expectHeader()
			.valueMatches("Location", "/api/v2/messages/[0-9a-f-]{36}")
			.expectBody(JsonNode.class)
			.returnResult()
			.getResponseBody();
		assertThat(message.get("direction").asString()).isEqualTo("outbound");
		assertThat(message.get("type").asString()).isEqualTo("text");
		assertThat(message.get("status").asString()).isEqualTo("sent");
		assertThat(message.get("instanceId").asString()).isEqualTo(instance.toString());
		assertThat(get("/messages/" + id(message)).get("text").asString()).isEqualTo("hello there");
		JsonNode event = get("/events?instanceId=" + instance + "&type=message.sent").get("items").get(0);
		assertThat(event.get("subjectId").asString()).isEqualTo(id(message).toString());
		assertThat(event.get("payload").get("text").asString()).isEqualTo("hello there");
	}

	@Test
	void sendsAMediaReference() {
		UUID chat = createChat(createInstance());
		JsonNode message = post(this.admin, "/messages", Map.of("chatId", chat, "type", "image", "text", "caption",
				"media", Map.of("url", "https://cdn.example.com/p.jpg", "mimeType", "image/jpeg")), HttpStatus.CREATED);
		assertThat(message.get("type").asString()).isEqualTo("image");
		assertThat(message.get("media").get("url").asString()).isEqualTo("https://cdn.example.com/p.jpg");
		assertThat(get("/messages/" + id(message)).get("media").get("mimeType").asString()).isEqualTo("image/jpeg");
	}

	@Test
	void rejectsInvalidSendsNamingTheField() {
		UUID chat = createChat(createInstance());
		assertThat(
				post(this.admin, "/messages", Map.of("chatId", chat), HttpStatus.BAD_REQUEST).get("field").asString())
			.isEqualTo("text");
		assertThat(post(this.admin, "/messages", Map.of("text", "x"), HttpStatus.BAD_REQUEST).get("field").asString())
			.isEqualTo("chatId");
		assertThat(post(this.admin, "/messages", Map.of("chatId", chat, "type", "image", "text", "x"),
				HttpStatus.BAD_REQUEST)
			.get("field")
			.asString()).isEqualTo("media");
		assertThat(post(this.admin, "/messages", Map.of("chatId", chat, "media", Map.of("url", "not a url")),
				HttpStatus.BAD_REQUEST)
			.get("field")
			.asString()).isEqualTo("media.url");
		assertThat(post(this.admin, "/messages", Map.of("chatId", chat, "text", "x".repeat(65_537)),
				HttpStatus.BAD_REQUEST)
			.get("field")
			.asString()).isEqualTo("text");
		assertProblem(
				post(this.admin, "/messages", Map.of("chatId", UUID.randomUUID(), "text", "x"), HttpStatus.NOT_FOUND),
				404, "not-found");
		assertProblem(get(this.admin, "/messages/" + UUID.randomUUID(), HttpStatus.NOT_FOUND), 404, "not-found");
	}

	@Test
	void listsMessagesWithFilters() {
		UUID instance = createInstance();
		UUID chat = createChat(instance);
		UUID other = createChat(instance);
		UUID out = id(send(chat, "Order 42 shipped"));
		UUID in = id(post(this.admin, "/messages",
				Map.of("chatId", chat, "text", "where is my ORDER?", "direction", "inbound"), HttpStatus.CREATED));
		UUID image = id(post(this.admin, "/messages",
				Map.of("chatId", chat, "type", "image", "media", Map.of("url", "https://cdn.example.com/1.png")),
				HttpStatus.CREATED));
		UUID elsewhere = id(send(other, "order elsewhere"));
		assertThat(ids("/messages?chatId=" + chat)).containsExactly(image, in, out);
		assertThat(ids("/chats/" + chat + "/messages")).containsExactly(image, in, out);
		assertThat(ids("/messages?instanceId=" + instance)).containsExactly(elsewhere, image, in, out);
		assertThat(ids("/messages?chatId=" + chat + "&direction=inbound")).containsExactly(in);
		assertThat(ids("/messages?chatId=" + chat + "&type=image")).containsExactly(image);
		assertThat(ids("/messages?instanceId=" + instance + "&q=order")).containsExactly(elsewhere, in, out);
		assertThat(ids("/messages?instanceId=" + instance + "&q=100%25")).isEmpty();
		assertThat(ids("/chats/" + chat + "/messages?q=SHIPPED")).containsExactly(out);
		Instant future = Instant.now().plusSeconds(3600);
		assertThat(ids("/messages?chatId=" + chat + "&since=" + future)).isEmpty();
		assertThat(ids("/messages?chatId=" + chat + "&until=" + future)).containsExactly(image, in, out);
		assertThat(ids("/messages?chatId=" + chat + "&since=2020-01-01T00:00:00Z&until=2020-01-02T00:00:00Z"))
			.isEmpty();
		assertThat(get(this.admin, "/messages?since=yesterday", HttpStatus.BAD_REQUEST).get("field").asString())
			.isEqualTo("since");
		assertThat(get(this.admin, "/messages?direction=sideways", HttpStatus.BAD_REQUEST).get("field").asString())
			.isEqualTo("direction");
		assertProblem(get(this.admin, "/chats/" + UUID.randomUUID() + "/messages", HttpStatus.NOT_FOUND), 404,
				"not-found");
	}

	@Test
	void validatesPageParameters() {
		assertThat(get(this.admin, "/messages?limit=0", HttpStatus.BAD_REQUEST).get("field").asString())
			.isEqualTo("limit");
		assertThat(get(this.admin, "/messages?limit=101", HttpStatus.BAD_REQUEST).get("field").asString())
			.isEqualTo("limit");
		assertThat(get(this.admin, "/messages?cursor=bogus", HttpStatus.BAD_REQUEST).get("field").asString())
			.isEqualTo("cursor");
		assertThat(get("/messages?limit=100").get("meta").get("limit").asInt()).isEqualTo(100);
		assertThat(get("/messages").get("meta").get("limit").asInt()).isEqualTo(50);
	}

	@Test
	void changesStatusAndRecordsTheEvent() {
		UUID instance = createInstance();
		UUID message = id(send(createChat(instance), "status please"));
		this.admin.patch()
			.uri("/messages/{id}", message)
			.contentType(MediaType.APPLICATION_JSON)
			.bodyValue(Map.of("status", "delivered"))
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody()
			.jsonPath("$.status")
			.isEqualTo("delivered");
		assertThat(get("/messages/" + message).get("status").asString()).isEqualTo("delivered");
		JsonNode event = get("/events?instanceId=" + instance + "&type=message.status_changed").get("items").get(0);
		assertThat(event.get("payload").get("status").asString()).isEqualTo("delivered");
	}

	private List<UUID> ids(String path) {
		return get(path).get("items").valueStream().map(IntegrationTestSupport::id).toList();
	}

	@Test
	void rejectsUnknownAndReadOnlyFieldsNamingThem() {
		UUID chat = createChat(createInstance());
		assertInvalidField(post(this.admin, "/messages", Map.of("chatId", chat, "text", "x", "status", "read"),
				HttpStatus.BAD_REQUEST), "status");
		assertInvalidField(post(this.admin, "/messages",
				Map.of("chatId", chat, "media", Map.of("url", "https://example.com/a.png", "size", 10)),
				HttpStatus.BAD_REQUEST), "media.size");
		UUID message = id(send(chat, "original"));
		assertInvalidField(patch(this.admin, "/messages/" + message, Map.of("status", "read", "text", "edited"),
				HttpStatus.BAD_REQUEST), "text");
		JsonNode unchanged = get("/messages/" + message);
		assertThat(unchanged.get("text").asString()).isEqualTo("original");
		assertThat(unchanged.get("status").asString()).isEqualTo("sent");
		assertThat(get("/messages?chatId=" + chat).get("items").size()).isEqualTo(1);
	}

}
