package dev.junction.messaging.webhook;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import dev.junction.messaging.support.IntegrationTestSupport;
import org.junit.jupiter.api.Test;

import org.springframework.http.HttpStatus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Delivery outcomes and the dead-letter gauge, as scraped (3 attempts per delivery, see
 * the base class).
 */
class WebhookMetricsIntegrationTests extends IntegrationTestSupport {

	private static final Duration PATIENCE = Duration.ofSeconds(20);

	@Test
	void countsDeliveriesRetriesAndDeadLetters() {
		double deliveredBefore = value("junction_messaging_webhook_deliveries_total", "outcome=\"delivered\"");
		double retriedBefore = value("junction_messaging_webhook_deliveries_total", "outcome=\"retried\"");
		double deadBefore = value("junction_messaging_webhook_deliveries_total", "outcome=\"dead_lettered\"");
		try (WebhookReceiver failing = new WebhookReceiver().answer(500);
				WebhookReceiver accepting = new WebhookReceiver().answer(200)) {
			UUID instance = createInstance();
			UUID webhook = id(post(this.admin, "/webhooks",
					Map.of("instanceId", instance, "url", failing.url(), "eventTypes", List.of("chat.created")),
					HttpStatus.CREATED));
			post(this.admin, "/webhooks",
					Map.of("instanceId", instance, "url", accepting.url(), "eventTypes", List.of("chat.created")),
					HttpStatus.CREATED);
			createChat(instance);

			await().atMost(PATIENCE)
				.untilAsserted(() -> assertThat(get("/webhooks/dead-letters?webhookId=" + webhook).get("items").size())
					.isEqualTo(1));
			await().atMost(PATIENCE).untilAsserted(() -> {
				assertThat(value("junction_messaging_webhook_deliveries_total", "outcome=\"delivered\""))
					.isGreaterThanOrEqualTo(deliveredBefore + 1);
				assertThat(value("junction_messaging_webhook_deliveries_total", "outcome=\"retried\""))
					.isGreaterThanOrEqualTo(retriedBefore + 2);
				assertThat(value("junction_messaging_webhook_deliveries_total", "outcome=\"dead_lettered\""))
					.isGreaterThanOrEqualTo(deadBefore + 1);
				assertThat(value("junction_messaging_webhook_dead_letters", null)).isGreaterThanOrEqualTo(1);
			});
		}
	}

	/**
	 * The value of the series {@code name} whose labels include {@code label} (any, when
	 * null).
	 */
	private double value(String name, String label) {
		String scrape = prometheus();
		return scrape.lines()
			.filter((line) -> line.startsWith(name + "{") && (label == null || line.contains(label)))
			.mapToDouble((line) -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
			.findFirst()
			.orElseThrow(() -> new AssertionError("no series " + name + " with " + label + " in\n" + scrape));
	}

}
