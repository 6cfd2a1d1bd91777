package dev.junction.messaging.webhook;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import dev.junction.messaging.support.IntegrationTestSupport;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Deliveries against a local receiver, with retries of 50 ms base delay and 3 attempts (see the base class). */
class WebhookIntegrationTests extends IntegrationTestSupport {

	private static final Duration PATIENCE = Duration.ofSeconds(20);

	private final JsonMapper json = JsonMapper.builder().build();

	@Autowired
	WebhookDispatcher dispatcher;

	@Autowired
	DeliveryRepository deliveryRepository;

	@Test
	void managesSubscriptions() {
		UUID instance = createInstance();
		JsonNode created = post(this.admin, "/webhooks", Map.of("instanceId", instance, "url", "https://example.com/h",
				"eventTypes", List.of("message.sent")), HttpStatus.CREATED);
		assertThat(created.get("secret").asString()).startsWith("whsec_");
		UUID id = id(created);
		JsonNode fetched = get("/webhooks/" + id);
		assertThat(fetched.has("secret")).isFalse();
		assertThat(get("/webhooks?instanceId=" + instance).get("items").size()).isEqualTo(1);
		JsonNode paused = this.admin.patch()
			.uri("/webhooks/{id}", id)
			.contentType(MediaType.APPLICATION_JSON)
			.bodyValue(Map.of("active", false, "eventTypes", List.of("*")))
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody(JsonNode.class)
			.returnResult()
			.getResponseBody();
		assertThat(paused.get("active").asBoolean()).isFalse();
		assertThat(paused.get("eventTypes").get(0).asString()).isEqualTo("*");
		this.admin.delete().uri("/webhooks/{id}", id).exchange().expectStatus().isNoContent();
		get(this.admin, "/webhooks/" + id, HttpStatus.NOT_FOUND);
		assertThat(post(this.admin, "/webhooks", Map.of("instanceId", instance, "url", "ftp://x", "eventTypes",
				List.of("*")), HttpStatus.BAD_REQUEST).get("field").asString()).isEqualTo("url");
		assertThat(post(this.admin, "/webhooks", Map.of("instanceId", instance, "url", "https://x", "eventTypes",
				List.of()), HttpStatus.BAD_REQUEST).get("field").asString()).isEqualTo("eventTypes");
	}

	@Test
	void retriesWithBackoffUntilTheReceiverAccepts() {
		try (WebhookReceiver receiver = new WebhookReceiver().answer(500, 503, 200)) {
			UUID instance = createInstance();
			String secret = "a-secret-of-sufficient-length";
			UUID webhook = id(post(this.admin, "/webhooks", Map.of("instanceId", instance, "url", receiver.url(),
					"eventTypes", List.of("message.sent"), "secret", secret), HttpStatus.CREATED));
			UUID chat = createChat(instance);
			UUID message = id(send(chat, "deliver me"));

			await().atMost(PATIENCE).untilAsserted(() -> assertThat(receiver.received()).hasSize(3));
			await().atMost(PATIENCE).untilAsserted(() -> {
				JsonNode delivery = get("/webhooks/" + webhook + "/deliveries").get("items").get(0);
				assertThat(delivery.get("status").asString()).isEqualTo("delivered");
				assertThat(delivery.get("attempts").asInt()).isEqualTo(3);
				assertThat(delivery.get("lastStatusCode").asInt()).isEqualTo(200);
			});
			WebhookReceiver.Received last = receiver.received().get(2);
			JsonNode body = this.json.readTree(last.body());
			assertThat(body.get("type").asString()).isEqualTo("message.sent");
			assertThat(body.get("payload").get("id").asString()).isEqualTo(message.toString());
			assertThat(last.headers().get("x-junction-event-id")).isEqualTo(body.get("id").asString());
			assertThat(last.headers().get("x-junction-signature")).isEqualTo(Signatures.sign(secret, last.body()));
			assertThat(last.headers().get("x-junction-delivery-attempt")).isEqualTo("3");
			assertThat(receiver.received()).extracting(WebhookReceiver.Received::status).containsExactly(500, 503, 200);
			assertThat(receiver.received().stream().map((r) -> r.headers().get("x-junction-delivery-id")).distinct())
				.hasSize(1);
			// chat.created was not subscribed to
			assertThat(receiver.received()).allMatch((r) -> "message.sent".equals(r.headers().get("x-junction-event-type")));
		}
	}

	@Test
	void deadLettersAfterTheLastAttemptAndRetriesThemOnRequest() {
		try (WebhookReceiver receiver = new WebhookReceiver().answer(500)) {
			UUID instance = createInstance();
			UUID webhook = id(post(this.admin, "/webhooks", Map.of("instanceId", instance, "url", receiver.url(),
					"eventTypes", List.of("*")), HttpStatus.CREATED));
			createChat(instance);

			await().atMost(PATIENCE).untilAsserted(() -> {
				JsonNode dead = get("/webhooks/dead-letters?webhookId=" + webhook);
				assertThat(dead.get("items").size()).isEqualTo(1);
				assertThat(dead.get("items").get(0).get("attempts").asInt()).isEqualTo(3);
				assertThat(dead.get("items").get(0).get("lastStatusCode").asInt()).isEqualTo(500);
			});
			assertThat(receiver.received()).hasSize(3);
			UUID delivery = id(get("/webhooks/dead-letters?webhookId=" + webhook).get("items").get(0));

			receiver.answer(200);
			JsonNode accepted = post(this.admin, "/webhooks/dead-letters/" + delivery + "/retry", Map.of(),
					HttpStatus.ACCEPTED);
			assertThat(accepted.get("status").asString()).isIn("pending", "retrying", "delivered");
			await().atMost(PATIENCE).untilAsserted(() -> {
				JsonNode done = get("/webhooks/" + webhook + "/deliveries?status=delivered");
				assertThat(done.get("items").size()).isEqualTo(1);
				assertThat(done.get("items").get(0).get("attempts").asInt()).isEqualTo(4);
			});
			assertThat(get("/webhooks/dead-letters?webhookId=" + webhook).get("items").size()).isZero();
			assertProblem(post(this.admin, "/webhooks/dead-letters/" + delivery + "/retry", Map.of(), HttpStatus.CONFLICT),
					409, "conflict");
			assertProblem(post(this.admin, "/webhooks/dead-letters/" + UUID.randomUUID() + "/retry", Map.of(),
					HttpStatus.NOT_FOUND), 404, "not-found");
		}
	}

	@Test
	void resumesUnfinishedDeliveriesWhenTheDispatcherStarts() {
		try (WebhookReceiver receiver = new WebhookReceiver().answer(200)) {
			UUID instance = createInstance();
			createChat(instance);
			UUID webhook = id(post(this.admin, "/webhooks", Map.of("instanceId", instance, "url", receiver.url(),
					"eventTypes", List.of("chat.created")), HttpStatus.CREATED));
			UUID event = id(get("/events?instanceId=" + instance + "&type=chat.created").get("items").get(0));
			this.dispatcher.stop();
			try {
				Delivery left = new Delivery(UUID.randomUUID(), webhook, event, instance, DeliveryStatus.PENDING, 0, null,
						null, null, java.time.Instant.now(), null);
				this.deliveryRepository.insert(left).block(PATIENCE);
			}
			finally {
				this.dispatcher.start();
			}
			await().atMost(PATIENCE).untilAsserted(() -> {
				assertThat(receiver.received()).hasSize(1);
				assertThat(get("/webhooks/" + webhook + "/deliveries?status=delivered").get("items").size()).isEqualTo(1);
			});
			assertThat(receiver.received().get(0).headers().get("x-junction-event-id")).isEqualTo(event.toString());
		}
	}

	@Test
	void recordsUnreachableReceiversAsFailedAttempts() {
		UUID instance = createInstance();
		UUID webhook = id(post(this.admin, "/webhooks", Map.of("instanceId", instance, "url", "http://127.0.0.1:1/none",
				"eventTypes", List.of("chat.created")), HttpStatus.CREATED));
		createChat(instance);
		await().atMost(PATIENCE).untilAsserted(() -> {
			JsonNode dead = get("/webhooks/dead-letters?instanceId=" + instance);
			assertThat(dead.get("items").size()).isEqualTo(1);
			assertThat(dead.get("items").get(0).get("lastError").asString()).isNotBlank();
			assertThat(dead.get("items").get(0).get("webhookId").asString()).isEqualTo(webhook.toString());
		});
	}

	@Test
	void rejectsUnknownAndReadOnlyFieldsNamingThem() {
		UUID instance = createInstance();
		assertInvalidField(post(this.admin, "/webhooks", Map.of("instanceId", instance, "url", "https://example.com/h",
				"eventTypes", List.of("*"), "active", false), HttpStatus.BAD_REQUEST), "active");
		UUID webhook = id(post(this.admin, "/webhooks", Map.of("instanceId", instance, "url", "https://example.com/h",
				"eventTypes", List.of("*")), HttpStatus.CREATED));
		assertInvalidField(patch(this.admin, "/webhooks/" + webhook, Map.of("secret", "a-new-secret-of-some-length"),
				HttpStatus.BAD_REQUEST), "secret");
		assertInvalidField(patch(this.admin, "/webhooks/" + webhook, Map.of("instanceId", createInstance()),
				HttpStatus.BAD_REQUEST), "instanceId");
		assertThat(get("/webhooks/" + webhook).get("instanceId").asString()).isEqualTo(instance.toString());
	}
}
