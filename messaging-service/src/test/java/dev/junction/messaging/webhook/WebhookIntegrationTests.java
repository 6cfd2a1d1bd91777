package dev.junction.messaging.webhook;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import dev.junction.messaging.support.IntegrationTestSupport;
import dev.junction.messaging.support.TestHttp;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.reactive.function.client.WebClient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Deliveries against a local receiver, with retries of 50 ms base delay and 3 attempts
 * (see the base class).
 */
class WebhookIntegrationTests extends IntegrationTestSupport {

	private static final Duration PATIENCE = Duration.ofSeconds(20);

	/** How old a signature's timestamp a receiver accepts, as the README recommends. */
	private static final Duration TOLERANCE = Duration.ofMinutes(5);

	private final JsonMapper json = JsonMapper.builder().build();

	@Autowired
	WebhookDispatcher dispatcher;

	@Autowired
	DeliveryRepository deliveryRepository;

	@Test
	void managesSubscriptions() {
		UUID instance = createInstance();
		JsonNode created = post(this.admin, "/webhooks",
				Map.of("instanceId", instance, "url", "https://example.com/h", "eventTypes", List.of("message.sent")),
				HttpStatus.CREATED);
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
		this.admin.delete().uri("/webhooks/{id}", id).exchange().expectStatus().isNoContent().expectBody().isEmpty();
		get(this.admin, "/webhooks/" + id, HttpStatus.NOT_FOUND);
		assertThat(post(this.admin, "/webhooks",
				Map.of("instanceId", instance, "url", "ftp://x", "eventTypes", List.of("*")), HttpStatus.BAD_REQUEST)
			.get("field")
			.asString()).isEqualTo("url");
		assertThat(post(this.admin, "/webhooks",
				Map.of("instanceId", instance, "url", "https://x", "eventTypes", List.of()), HttpStatus.BAD_REQUEST)
			.get("field")
			.asString()).isEqualTo("eventTypes");
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
			assertSignedBy(secret, last);
			assertThat(last.headers().get("x-junction-delivery-attempt")).isEqualTo("3");
			assertThat(receiver.received()).extracting(WebhookReceiver.Received::status).containsExactly(500, 503, 200);
			assertThat(receiver.received().stream().map((r) -> r.headers().get("x-junction-delivery-id")).distinct())
				.hasSize(1);
			// chat.created was not subscribed to
			assertThat(receiver.received())
				.allMatch((r) -> "message.sent".equals(r.headers().get("x-junction-event-type")));
		}
	}

	@Test
	void deadLettersAfterTheLastAttemptAndRetriesThemOnRequest() {
		try (WebhookReceiver receiver = new WebhookReceiver().answer(500)) {
			UUID instance = createInstance();
			UUID webhook = id(post(this.admin, "/webhooks",
					Map.of("instanceId", instance, "url", receiver.url(), "eventTypes", List.of("*")),
					HttpStatus.CREATED));
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
			await().atMost(PATIENCE).untilAsserted(() -> assertThat(receiver.received()).hasSize(4));
			assertThat(receiver.received())
				.extracting((request) -> request.headers().get("x-junction-delivery-attempt"))
				.containsExactly("1", "2", "3", "4");
			assertThat(accepted.get("status").asString()).isIn("pending", "retrying", "delivered");
			await().atMost(PATIENCE).untilAsserted(() -> {
				JsonNode done = get("/webhooks/" + webhook + "/deliveries?status=delivered");
				assertThat(done.get("items").size()).isEqualTo(1);
				assertThat(done.get("items").get(0).get("attempts").asInt()).isEqualTo(4);
			});
			assertThat(get("/webhooks/dead-letters?webhookId=" + webhook).get("items").size()).isZero();
			assertProblem(
					post(this.admin, "/webhooks/dead-letters/" + delivery + "/retry", Map.of(), HttpStatus.CONFLICT),
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
			UUID webhook = id(post(this.admin, "/webhooks",
					Map.of("instanceId", instance, "url", receiver.url(), "eventTypes", List.of("chat.created")),
					HttpStatus.CREATED));
			UUID event = id(get("/events?instanceId=" + instance + "&type=chat.created").get("items").get(0));
			this.dispatcher.stop();
			try {
				Delivery left = new Delivery(UUID.randomUUID(), webhook, event, instance, DeliveryStatus.PENDING, 0,
						null, null, null, java.time.Instant.now(), null);
				this.deliveryRepository.insert(left).block(PATIENCE);
			}
			finally {
				this.dispatcher.start();
			}
			await().atMost(PATIENCE).untilAsserted(() -> {
				assertThat(receiver.received()).hasSize(1);
				assertThat(get("/webhooks/" + webhook + "/deliveries?status=delivered").get("items").size())
					.isEqualTo(1);
			});
			assertThat(receiver.received().get(0).headers().get("x-junction-event-id")).isEqualTo(event.toString());
		}
	}

	@Test
	void recordsUnreachableReceiversAsFailedAttempts() {
		UUID instance = createInstance();
		UUID webhook = id(post(this.admin, "/webhooks",
				Map.of("instanceId", instance, "url", "http://127.0.0.1:1/none", "eventTypes", List.of("chat.created")),
				HttpStatus.CREATED));
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
		UUID webhook = id(post(this.admin, "/webhooks",
				Map.of("instanceId", instance, "url", "https://example.com/h", "eventTypes", List.of("*")),
				HttpStatus.CREATED));
		assertInvalidField(patch(this.admin, "/webhooks/" + webhook, Map.of("secret", "a-new-secret-of-some-length"),
				HttpStatus.BAD_REQUEST), "secret");
		assertInvalidField(patch(this.admin, "/webhooks/" + webhook, Map.of("instanceId", createInstance()),
				HttpStatus.BAD_REQUEST), "instanceId");
		assertThat(get("/webhooks/" + webhook).get("instanceId").asString()).isEqualTo(instance.toString());
	}

	@Test
	void signsEveryDeliveryWithATimestampTheSignatureCovers() {
		try (WebhookReceiver receiver = new WebhookReceiver().answer(200)) {
			UUID instance = createInstance();
			String secret = "whsec_a-secret-of-sufficient-length";
			post(this.admin, "/webhooks", Map.of("instanceId", instance, "url", receiver.url(), "eventTypes",
					List.of("chat.created"), "secret", secret), HttpStatus.CREATED);
			createChat(instance);
			await().atMost(PATIENCE).untilAsserted(() -> assertThat(receiver.received()).hasSize(1));
			WebhookReceiver.Received delivery = receiver.received().get(0);
			assertSignedBy(secret, delivery);
			String header = delivery.headers().get("x-junction-signature");
			String replayedLater = header.replaceFirst("t=(\\d+)", "t=" + (Instant.now().getEpochSecond() + 3600));
			assertThat(verify(secret, replayedLater, delivery.body(), Duration.ofDays(1))).isFalse();
			assertThat(verify("another-secret-of-some-length", header, delivery.body(), TOLERANCE)).isFalse();
		}
	}

	@Test
	void sendsEveryAttemptWithATraceparentOfItsOwn() {
		try (WebhookReceiver receiver = new WebhookReceiver().answer(500, 200)) {
			UUID instance = createInstance();
			post(this.admin, "/webhooks",
					Map.of("instanceId", instance, "url", receiver.url(), "eventTypes", List.of("chat.created")),
					HttpStatus.CREATED);
			createChat(instance);
			await().atMost(PATIENCE).untilAsserted(() -> assertThat(receiver.received()).hasSize(2));
			List<String> traceparents = receiver.received()
				.stream()
				.map((r) -> r.headers().get("traceparent"))
				.toList();
			assertThat(traceparents).allSatisfy((traceparent) -> assertThat(traceparent)
				.matches("00-(?!0{32})[0-9a-f]{32}-(?!0{16})[0-9a-f]{16}-[0-9a-f]{2}"));
			assertThat(traceparents).doesNotHaveDuplicates();
		}
	}

	@Test
	void stopsRetryingWhenTheSubscriptionIsDeleted() {
		try (WebhookReceiver receiver = new WebhookReceiver().answer(500)) {
			UUID instance = createInstance();
			UUID webhook = id(post(this.admin, "/webhooks",
					Map.of("instanceId", instance, "url", receiver.url(), "eventTypes", List.of("chat.created")),
					HttpStatus.CREATED));
			receiver.beforeAnswering(
					(request) -> api().delete().uri("/webhooks/{id}", webhook).retrieve().toBodilessEntity());
			createChat(instance);
			await().atMost(PATIENCE).untilAsserted(() -> assertThat(receiver.received()).hasSize(1));
			get(this.admin, "/webhooks/" + webhook, HttpStatus.NOT_FOUND);
			await().during(Duration.ofSeconds(1))
				.atMost(PATIENCE)
				.untilAsserted(() -> assertThat(receiver.received()).hasSize(1));
		}
	}

	@Test
	void stopsRetryingAndCancelsTheDeliveryWhenTheSubscriptionIsPaused() {
		try (WebhookReceiver receiver = new WebhookReceiver().answer(500)) {
			UUID instance = createInstance();
			UUID webhook = id(post(this.admin, "/webhooks",
					Map.of("instanceId", instance, "url", receiver.url(), "eventTypes", List.of("chat.created")),
					HttpStatus.CREATED));
			receiver.beforeAnswering((request) -> api().patch()
				.uri("/webhooks/{id}", webhook)
				.bodyValue(Map.of("active", false))
				.retrieve()
				.toBodilessEntity());
			createChat(instance);
			await().atMost(PATIENCE).untilAsserted(() -> assertThat(receiver.received()).hasSize(1));
			await().during(Duration.ofSeconds(1))
				.atMost(PATIENCE)
				.untilAsserted(() -> assertThat(receiver.received()).hasSize(1));
			JsonNode delivery = get("/webhooks/" + webhook + "/deliveries").get("items").get(0);
			assertThat(delivery.get("status").asString()).isEqualTo("cancelled");
			assertThat(delivery.get("attempts").asInt()).isEqualTo(1);
			assertThat(get("/webhooks/dead-letters?webhookId=" + webhook).get("items").size()).isZero();
		}
	}

	@Test
	void retriesGoToTheNewUrlAfterItChanges() {
		try (WebhookReceiver old = new WebhookReceiver().answer(500);
				WebhookReceiver moved = new WebhookReceiver().answer(200)) {
			UUID instance = createInstance();
			String secret = "whsec_a-secret-of-sufficient-length";
			UUID webhook = id(post(this.admin, "/webhooks", Map.of("instanceId", instance, "url", old.url(),
					"eventTypes", List.of("chat.created"), "secret", secret), HttpStatus.CREATED));
			old.beforeAnswering((request) -> api().patch()
				.uri("/webhooks/{id}", webhook)
				.bodyValue(Map.of("url", moved.url()))
				.retrieve()
				.toBodilessEntity());
			createChat(instance);
			await().atMost(PATIENCE).untilAsserted(() -> assertThat(moved.received()).hasSize(1));
			assertThat(old.received()).hasSize(1);
			assertThat(moved.received().get(0).headers().get("x-junction-delivery-attempt")).isEqualTo("2");
			assertSignedBy(secret, moved.received().get(0));
			await().atMost(PATIENCE)
				.untilAsserted(() -> assertThat(
						get("/webhooks/" + webhook + "/deliveries").get("items").get(0).get("status").asString())
					.isEqualTo("delivered"));
		}
	}

	@Test
	void refusesToRetryADeadLetterOfAPausedSubscription() {
		try (WebhookReceiver receiver = new WebhookReceiver().answer(500)) {
			UUID instance = createInstance();
			UUID webhook = id(post(this.admin, "/webhooks",
					Map.of("instanceId", instance, "url", receiver.url(), "eventTypes", List.of("chat.created")),
					HttpStatus.CREATED));
			createChat(instance);
			await().atMost(PATIENCE)
				.untilAsserted(() -> assertThat(get("/webhooks/dead-letters?webhookId=" + webhook).get("items").size())
					.isEqualTo(1));
			UUID delivery = id(get("/webhooks/dead-letters?webhookId=" + webhook).get("items").get(0));
			patch(this.admin, "/webhooks/" + webhook, Map.of("active", false), HttpStatus.OK);
			assertProblem(
					post(this.admin, "/webhooks/dead-letters/" + delivery + "/retry", Map.of(), HttpStatus.CONFLICT),
					409, "conflict");
			assertThat(receiver.received()).hasSize(3);
		}
	}

	/**
	 * Checks the delivery as the README tells receivers to: signature over the timestamp
	 * and body, timestamp recent.
	 */
	private static void assertSignedBy(String secret, WebhookReceiver.Received delivery) {
		assertThat(verify(secret, delivery.headers().get("x-junction-signature"), delivery.body(), TOLERANCE))
			.as("signature %s", delivery.headers().get("x-junction-signature"))
			.isTrue();
	}

	/** A receiver's check, written from the README, independent of the service's code. */
	private static boolean verify(String secret, String header, byte[] body, Duration tolerance) {
		Map<String, String> parts = new java.util.HashMap<>();
		for (String part : header.split(",")) {
			String[] pair = part.split("=", 2);
			parts.put(pair[0], pair[1]);
		}
		long timestamp = Long.parseLong(parts.get("t"));
		if (Math.abs(Instant.now().getEpochSecond() - timestamp) > tolerance.toSeconds()) {
			return false;
		}
		try {
			Mac mac = Mac.getInstance("HmacSHA256");
			mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
			mac.update((timestamp + ".").getBytes(StandardCharsets.UTF_8));
			byte[] expected = mac.doFinal(body);
			return MessageDigest.isEqual(expected, HexFormat.of().parseHex(parts.get("v1")));
		}
		catch (GeneralSecurityException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private WebClient api() {
		return TestHttp.webClient(this.port).defaultHeader("x-api-key", ADMIN_KEY).build();
	}

}
