package dev.junction.messaging.event;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import dev.junction.messaging.support.IntegrationTestSupport;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.test.StepVerifier;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.codec.ServerSentEvent;

import static org.assertj.core.api.Assertions.assertThat;

class EventApiIntegrationTests extends IntegrationTestSupport {

	private static final ParameterizedTypeReference<ServerSentEvent<String>> SSE = new ParameterizedTypeReference<>() {
	};

	private final JsonMapper json = JsonMapper.builder().build();

	@Autowired
	private EventBus bus;

	@Autowired
	private EventRepository repository;

	@Test
	void recordsAnEventForEveryChange() {
		UUID instance = createInstance();
		UUID chat = createChat(instance);
		UUID message = id(send(chat, "hi"));
		post(this.admin, "/chats/" + chat + "/pin", Map.of(), HttpStatus.OK);
		JsonNode page = get("/events?instanceId=" + instance);
		List<String> types = new ArrayList<>();
		page.get("items").forEach((event) -> types.add(event.get("type").asString()));
		assertThat(types).containsExactly("chat.updated", "message.sent", "chat.created", "instance.created");
		JsonNode sent = page.get("items").get(1);
		assertThat(sent.get("subjectId").asString()).isEqualTo(message.toString());
		JsonNode single = get("/events/" + sent.get("id").asString());
		assertThat(single.get("payload").get("chatId").asString()).isEqualTo(chat.toString());
		assertProblem(get(this.admin, "/events/" + UUID.randomUUID(), HttpStatus.NOT_FOUND), 404, "not-found");
	}

	@Test
	void filtersAndPagesEvents() {
		UUID instance = createInstance();
		UUID chat = createChat(instance);
		for (int i = 0; i < 5; i++) {
			send(chat, "m" + i);
		}
		JsonNode sent = get("/events?instanceId=" + instance + "&type=message.sent,chat.created&limit=4");
		assertThat(sent.get("items").size()).isEqualTo(4);
		assertThat(sent.get("meta").get("hasMore").asBoolean()).isTrue();
		JsonNode rest = get("/events?instanceId=" + instance + "&type=message.sent,chat.created&limit=4&cursor="
				+ sent.get("meta").get("nextCursor").asString());
		assertThat(rest.get("items").size()).isEqualTo(2);
		assertThat(rest.get("items").get(1).get("type").asString()).isEqualTo("chat.created");
		assertThat(get("/events?instanceId=" + instance + "&since=2999-01-01T00:00:00Z").get("items").size()).isZero();
	}

	@Test
	void streamsLiveEventsOfOneInstance() {
		UUID instance = createInstance();
		UUID chat = createChat(instance);
		UUID otherChat = createChat(createInstance());
		Flux<ServerSentEvent<String>> stream = stream(instance);
		StepVerifier.create(stream)
			.assertNext((first) -> assertThat(first.comment()).isEqualTo("connected"))
			.then(() -> {
				send(otherChat, "not for this stream");
				send(chat, "live one");
			})
			.assertNext((event) -> {
				assertThat(event.event()).isEqualTo("message.sent");
				JsonNode data = this.json.readTree(event.data());
				assertThat(data.get("instanceId").asString()).isEqualTo(instance.toString());
				assertThat(data.get("payload").get("text").asString()).isEqualTo("live one");
				assertThat(event.id()).isEqualTo(data.get("id").asString());
			})
			.thenCancel()
			.verify(Duration.ofSeconds(20));
	}

	@Test
	void streamWithoutLastEventIdLeavesOutEventsCommittedBeforeItOpened() {
		UUID instance = createInstance();
		UUID chat = createChat(instance);
		JsonNode created = get("/events?instanceId=" + instance + "&type=chat.created").get("items").get(0);
		Event committedBefore = this.repository.findById(UUID.fromString(created.get("id").asString())).block();
		Flux<ServerSentEvent<String>> stream = stream(instance);
		StepVerifier.create(stream)
			.assertNext((first) -> assertThat(first.comment()).isEqualTo("connected"))
			.then(() -> {
				// The notification of an event committed before the stream opened, heard
				// late, as another instance's commit can be.
				this.bus.publish(committedBefore);
				send(chat, "after");
			})
			.assertNext((event) -> assertThat(event.event()).isEqualTo("message.sent"))
			.thenCancel()
			.verify(Duration.ofSeconds(20));
	}

	@Test
	void resumesAfterLastEventIdThenContinuesLive() {
		UUID instance = createInstance();
		UUID chat = createChat(instance);
		for (int i = 0; i < 3; i++) {
			send(chat, "before " + i);
		}
		List<String> ids = new ArrayList<>();
		get("/events?instanceId=" + instance).get("items").forEach((event) -> ids.add(0, event.get("id").asString()));
		// ids oldest first: instance.created, chat.created, message.sent x3
		assertThat(ids).hasSize(5);
		Flux<ServerSentEvent<String>> stream = this.admin.get()
			.uri("/events/stream?instanceId={id}", instance)
			.header("Last-Event-ID", ids.get(1))
			.accept(MediaType.TEXT_EVENT_STREAM)
			.exchange()
			.expectStatus()
			.isOk()
			.returnResult(SSE)
			.getResponseBody()
			.filter((event) -> event.id() != null);
		List<String> received = new ArrayList<>();
		StepVerifier.create(stream)
			.recordWith(ArrayList::new)
			.expectNextCount(3)
			.consumeRecordedWith((replayed) -> replayed.forEach((event) -> received.add(event.id())))
			.then(() -> send(chat, "after"))
			.assertNext((live) -> {
				assertThat(live.event()).isEqualTo("message.sent");
				assertThat(live.data()).contains("\"after\"");
				received.add(live.id());
			})
			.thenCancel()
			.verify(Duration.ofSeconds(20));
		assertThat(received.subList(0, 3)).containsExactlyElementsOf(ids.subList(2, 5));
		assertThat(received).doesNotHaveDuplicates();
	}

	@Test
	void streamsOnlyTheRequestedTypes() {
		UUID instance = createInstance();
		UUID chat = createChat(instance);
		Flux<ServerSentEvent<String>> stream = this.admin.get()
			.uri("/events/stream?instanceId={id}&type=chat.updated", instance)
			.accept(MediaType.TEXT_EVENT_STREAM)
			.exchange()
			.expectStatus()
			.isOk()
			.returnResult(SSE)
			.getResponseBody()
			.filter((event) -> event.id() != null);
		StepVerifier.create(stream).then(() -> {
			send(chat, "ignored");
			post(this.admin, "/chats/" + chat + "/archive", Map.of(), HttpStatus.OK);
		})
			.assertNext((event) -> assertThat(event.event()).isEqualTo("chat.updated"))
			.thenCancel()
			.verify(Duration.ofSeconds(20));
	}

	@Test
	void rejectsAnUnknownLastEventIdBeforeStreaming() {
		JsonNode problem = this.admin.get()
			.uri("/events/stream")
			.header("Last-Event-ID", UUID.randomUUID().toString())
			.accept(MediaType.TEXT_EVENT_STREAM)
			.exchange()
			.expectStatus()
			.isBadRequest()
			.expectBody(JsonNode.class)
			.returnResult()
			.getResponseBody();
		assertThat(assertProblem(problem, 400, "invalid-request").get("field").asString()).isEqualTo("Last-Event-ID");
		JsonNode malformed = this.admin.get()
			.uri("/events/stream")
			.header("Last-Event-ID", "nope")
			.accept(MediaType.TEXT_EVENT_STREAM)
			.exchange()
			.expectStatus()
			.isBadRequest()
			.expectBody(JsonNode.class)
			.returnResult()
			.getResponseBody();
		assertThat(malformed.get("field").asString()).isEqualTo("Last-Event-ID");
	}

	/** The live event stream of {@code instance}, from its opening comment on. */
	private Flux<ServerSentEvent<String>> stream(UUID instance) {
		return this.admin.get()
			.uri("/events/stream?instanceId={id}", instance)
			.accept(MediaType.TEXT_EVENT_STREAM)
			.exchange()
			.expectStatus()
			.isOk()
			.returnResult(SSE)
			.getResponseBody();
	}

}
