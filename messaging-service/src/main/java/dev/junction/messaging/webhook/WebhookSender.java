package dev.junction.messaging.webhook;

import java.time.Clock;
import java.util.UUID;

import dev.junction.messaging.event.Event;
import io.netty.channel.ChannelOption;
import reactor.core.publisher.Mono;
import reactor.netty.http.client.HttpClient;

import org.springframework.http.MediaType;
import org.springframework.http.client.reactive.ReactorClientHttpConnector;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.client.WebClient;

/** POSTs one delivery to a receiver, signed, without blocking. */
@Component
class WebhookSender {

	static final String EVENT_ID = "X-Junction-Event-Id";

	static final String EVENT_TYPE = "X-Junction-Event-Type";

	static final String DELIVERY_ID = "X-Junction-Delivery-Id";

	static final String ATTEMPT = "X-Junction-Delivery-Attempt";

	private final WebClient client;

	private final Clock clock;

	WebhookSender(WebhookProperties properties, Clock clock) {
		this.clock = clock;
		HttpClient http = HttpClient.create()
			.responseTimeout(properties.timeout())
			.option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) Math.min(Integer.MAX_VALUE, properties.timeout().toMillis()));
		this.client = WebClient.builder().clientConnector(new ReactorClientHttpConnector(http)).build();
	}

	/**
	 * Sends {@code body}, signed as it leaves; emits the receiver's status code, or an error
	 * when no answer came.
	 */
	Mono<Integer> send(Webhook webhook, UUID deliveryId, Event event, byte[] body, int attempt) {
		return Mono.defer(() -> this.client.post()
			.uri(webhook.url())
			.contentType(MediaType.APPLICATION_JSON)
			.header(EVENT_ID, event.id().toString())
			.header(EVENT_TYPE, event.type())
			.header(DELIVERY_ID, deliveryId.toString())
			.header(ATTEMPT, Integer.toString(attempt))
			.header(Signatures.HEADER, Signatures.header(webhook.secret(), this.clock.instant().getEpochSecond(), body))
			.bodyValue(body)
			.exchangeToMono((response) -> response.releaseBody().thenReturn(response.statusCode().value())));
	}

}
