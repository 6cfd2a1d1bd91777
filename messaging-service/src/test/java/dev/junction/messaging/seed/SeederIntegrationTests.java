package dev.junction.messaging.seed;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import dev.junction.messaging.support.IntegrationTestSupport;
import org.junit.jupiter.api.Test;
import reactor.test.StepVerifier;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Autowired;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The bulk loader (COPY on PostgreSQL, multi-row INSERT on H2) writes rows the API reads
 * back consistently.
 */
class SeederIntegrationTests extends IntegrationTestSupport {

	@Autowired
	Seeder seeder;

	@Test
	void seedsInstancesChatsMessagesAndEventsWithMatchingCounters() {
		SeedProperties plan = new SeedProperties(2, 5, 2_503, 40, 3, 500);
		List<UUID> instances = new ArrayList<>();
		StepVerifier.create(this.seeder.seed(plan))
			.consumeNextWith(instances::addAll)
			.expectComplete()
			.verify(Duration.ofSeconds(120));
		assertThat(instances).hasSize(2);

		List<JsonNode> chats = new ArrayList<>();
		instances.forEach((instance) -> get("/chats?instanceId=" + instance).get("items").forEach(chats::add));
		assertThat(chats).hasSize(5);
		long total = 0;
		for (JsonNode chat : chats) {
			String name = chat.get("remoteId").asString();
			assertThat(name).startsWith("seed-");
			long count = chat.get("messageCount").asLong();
			total += count;
			JsonNode newest = get("/chats/" + chat.get("id").asString() + "/messages?limit=1");
			assertThat(newest.get("items").get(0).get("timestamp").asString())
				.isEqualTo(chat.get("lastMessageAt").asString());
			assertThat(countMessages(chat.get("id").asString())).isEqualTo(count);
		}
		assertThat(total).isEqualTo(2_503);
		JsonNode events = get("/events?type=message.received&instanceId=" + instances.get(0) + "&limit=100");
		assertThat(events.get("items").size()).isEqualTo(20);
		assertThat(events.get("items").get(0).get("payload").get("seeded").asBoolean()).isTrue();
	}

	private long countMessages(String chatId) {
		long count = 0;
		String cursor = null;
		do {
			JsonNode page = get(
					"/messages?chatId=" + chatId + "&limit=100" + ((cursor != null) ? "&cursor=" + cursor : ""));
			count += page.get("items").size();
			cursor = page.get("meta").get("nextCursor").isNull() ? null : page.get("meta").get("nextCursor").asString();
		}
		while (cursor != null);
		return count;
	}

}
