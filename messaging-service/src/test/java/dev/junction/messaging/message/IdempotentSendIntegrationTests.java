package dev.junction.messaging.message;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import dev.junction.messaging.support.IntegrationTestSupport;
import dev.junction.messaging.support.TestHttp;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;
import tools.jackson.databind.JsonNode;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.reactive.function.client.WebClient;

import static org.assertj.core.api.Assertions.assertThat;

class IdempotentSendIntegrationTests extends IntegrationTestSupport {

	@Test
	void storesARetriedSendOnce() {
		UUID instance = createInstance();
		UUID chat = createChat(instance);
		Map<String, Object> body = Map.of("chatId", chat, "text", "pay 10 EUR", "idempotencyKey", "send-1");
		JsonNode first = post(this.admin, "/messages", body, HttpStatus.CREATED);
		JsonNode again = this.admin.post()
			.uri("/messages")
			.contentType(MediaType.APPLICATION_JSON)
			.bodyValue(body)
			.exchange()
			.expectStatus()
			.isOk()
			.expectHeader()
			.valueEquals("Idempotent-Replayed", "true")
			.expectBody(JsonNode.class)
			.returnResult()
			.getResponseBody();
		assertThat(id(again)).isEqualTo(id(first));
		assertThat(get("/chats/" + chat).get("messageCount").asLong()).isEqualTo(1);
		assertThat(get("/messages?chatId=" + chat).get("items").size()).isEqualTo(1);
		assertThat(get("/events?instanceId=" + instance + "&type=message.sent").get("items").size()).isEqualTo(1);
	}

	@Test
	void acceptsTheKeyAsAHeader() {
		UUID chat = createChat(createInstance());
		UUID first = id(this.admin.post()
			.uri("/messages")
			.header("Idempotency-Key", "header-key")
			.contentType(MediaType.APPLICATION_JSON)
			.bodyValue(Map.of("chatId", chat, "text", "hi"))
			.exchange()
			.expectStatus()
			.isCreated()
			.expectBody(JsonNode.class)
			.returnResult()
			.getResponseBody());
		UUID second = id(this.admin.post()
			.uri("/messages")
			.header("Idempotency-Key", "header-key")
			.contentType(MediaType.APPLICATION_JSON)
			.bodyValue(Map.of("chatId", chat, "text", "hi"))
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody(JsonNode.class)
			.returnResult()
			.getResponseBody());
		assertThat(second).isEqualTo(first);
	}

	@Test
	void storesConcurrentSendsWithOneKeyOnce() {
		UUID chat = createChat(createInstance());
		WebClient client = TestHttp.webClient(this.port).defaultHeader("x-api-key", ADMIN_KEY).build();
		Mono<ResponseEntity<JsonNode>> send = client.post()
			.uri("/messages")
			.contentType(MediaType.APPLICATION_JSON)
			.bodyValue(Map.of("chatId", chat, "text", "once", "idempotencyKey", "race"))
			.retrieve()
			.toEntity(JsonNode.class);
		StepVerifier.create(Flux.range(0, 12).flatMap((i) -> send, 12).collectList()).assertNext((responses) -> {
			assertThat(responses).extracting((response) -> response.getStatusCode().value())
				.containsOnly(201, 200)
				.filteredOn((status) -> status == 201)
				.hasSize(1);
			assertThat(responses.stream().map((response) -> id(response.getBody())).distinct()).hasSize(1);
		}).expectComplete().verify(Duration.ofSeconds(30));
		assertThat(get("/chats/" + chat).get("messageCount").asLong()).isEqualTo(1);
	}

	@Test
	void rejectsAKeyReusedForADifferentMessage() {
		UUID chat = createChat(createInstance());
		post(this.admin, "/messages", Map.of("chatId", chat, "text", "a", "idempotencyKey", "k"), HttpStatus.CREATED);
		assertProblem(post(this.admin, "/messages", Map.of("chatId", chat, "text", "b", "idempotencyKey", "k"),
				HttpStatus.CONFLICT), 409, "conflict");
		assertThat(get("/messages?chatId=" + chat).get("items").size()).isEqualTo(1);
	}

	@Test
	void scopesKeysToTheInstance() {
		UUID one = createChat(createInstance());
		UUID two = createChat(createInstance());
		List<JsonNode> sent = List.of(
				post(this.admin, "/messages", Map.of("chatId", one, "text", "x", "idempotencyKey", "shared"),
						HttpStatus.CREATED),
				post(this.admin, "/messages", Map.of("chatId", two, "text", "x", "idempotencyKey", "shared"),
						HttpStatus.CREATED));
		assertThat(id(sent.get(0))).isNotEqualTo(id(sent.get(1)));
	}

}
