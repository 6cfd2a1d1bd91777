package dev.junction.messaging.message;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import dev.junction.messaging.support.IntegrationTestSupport;
import dev.junction.messaging.support.TestHttp;
import org.junit.jupiter.api.Test;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import tools.jackson.databind.JsonNode;

import org.springframework.http.MediaType;
import org.springframework.web.reactive.function.client.WebClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Keyset pages stay exact while messages arrive: the test clock ties timestamps, writers
 * insert concurrently, and paging must neither skip nor repeat a message that existed
 * when paging started.
 */
class MessagePaginationIntegrationTests extends IntegrationTestSupport {

	private static final Comparator<Row> NEWEST_FIRST = Comparator.comparing(Row::timestamp)
		.thenComparing(Row::id)
		.reversed();

	@Test
	void pagesThroughAChatWhileMessagesArriveWithoutSkipsOrRepeats() {
		UUID chat = createChat(createInstance());
		WebClient client = TestHttp.webClient(this.port).defaultHeader("x-api-key", ADMIN_KEY).build();
		Flux<JsonNode> writes = Flux.range(0, 150)
			.flatMap((i) -> client.post()
				.uri("/messages")
				.contentType(MediaType.APPLICATION_JSON)
				.bodyValue(Map.of("chatId", chat, "text", "before " + i))
				.retrieve()
				.bodyToMono(JsonNode.class), 8);
		Set<UUID> before = new HashSet<>(
				writes.map(IntegrationTestSupport::id).collectList().block(Duration.ofSeconds(60)));
		assertThat(before).hasSize(150);

		Disposable writer = Flux.range(0, 100)
			.concatMap((i) -> client.post()
				.uri("/messages")
				.contentType(MediaType.APPLICATION_JSON)
				.bodyValue(Map.of("chatId", chat, "text", "during " + i))
				.retrieve()
				.bodyToMono(JsonNode.class))
			.subscribe();
		List<Row> seen = new ArrayList<>();
		String cursor = null;
		int pages = 0;
		try {
			do {
				JsonNode page = get(
						"/chats/" + chat + "/messages?limit=7" + ((cursor != null) ? "&cursor=" + cursor : ""));
				page.get("items")
					.forEach((item) -> seen.add(new Row(id(item), Instant.parse(item.get("timestamp").asString()))));
				cursor = page.get("meta").get("hasMore").asBoolean() ? page.get("meta").get("nextCursor").asString()
						: null;
				pages++;
			}
			while (cursor != null);
		}
		finally {
			writer.dispose();
		}

		assertThat(pages).isGreaterThan(20);
		assertThat(seen).doesNotHaveDuplicates();
		assertThat(seen.stream().map(Row::id).toList()).containsAll(before);
		assertThat(seen).isSortedAccordingTo(NEWEST_FIRST);
		long distinctTimestamps = seen.stream().map(Row::timestamp).distinct().count();
		assertThat(distinctTimestamps).as("timestamps tie").isLessThan(seen.size());
	}

	private record Row(UUID id, Instant timestamp) {
	}

}
