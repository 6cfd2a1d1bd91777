package dev.junction.messaging.webhook;

import java.time.Clock;
import java.util.UUID;

import dev.junction.messaging.event.Event;
import io.micrometer.common.KeyValue;
import io.micrometer.observation.ObservationRegistry;
import io.netty.channel.ChannelOption;
import reactor.core.publisher.Mono;
import reactor.netty.http.client.HttpClient;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.http.MediaType;
import org.springframework.http.client.reactive.ReactorClientHttpConnector;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.client.ClientRequestObservationContext;
import org.springframework.web.reactive.function.client.DefaultClientRequestObservationConvention;
import org.springframework.web.reactive.function.client.WebClient;

/**
 * POSTs one delivery to a receiver, signed, without blocking, observed as an
 * {@code http.client.requests} call of client {@code webhook}: a span of its own whose
 * W3C {@code traceparent} goes with the delivery.
 */
@Component
class WebhookSender {

	static final String EVENT_ID = "X-Junction-Event-Id";

	static final String EVENT_TYPE = "X-Junction-Event-Type";

	static final String DELIVERY_ID = "X-Junction-Delivery-Id";

	static final String ATTEMPT = "X-Junction-Delivery-Attempt";

	private final WebClient client;

	private final Clock clock;

	WebhookSender(WebhookProperties properties, Clock clock, ObjectProvider<ObservationRegistry> observations) {
		this.clock = clock;
		HttpClient http = HttpClient.create()
			.responseTimeout(properties.timeout())
			.option(ChannelOption.CONNECT_TIMEOUT_MILLIS,
					(int) Math.min(Integer.MAX_VALUE, properties.timeout().toMillis()));
		this.client = WebClient.builder()
			.clientConnector(new ReactorClientHttpConnector(http))
			.observationRegistry(observations.getIfAvailable(() -> ObservationRegistry.NOOP))
			.observationConvention(new WebhookObservationConvention())
			.build();
	}

	/**
	 * Sends {@code body}, signed as it leaves; emits the receiver's status code, or an
	 * error when no answer came.
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

	/** Receivers' URLs and hosts are the users' own: metric tags name none of them. */
	private static final class WebhookObservationConvention extends DefaultClientRequestObservationConvention {

		private static final KeyValue CLIENT = KeyValue.of("client.name", "webhook");

		private static final KeyValue URI = KeyValue.of("uri", "webhook");

		@Override
		protected KeyValue clientName(ClientRequestObservationContext context) {
			return CLIENT;
		}

		@Override
		protected KeyValue uri(ClientRequestObservationContext context) {
			return URI;
		}

	}

}
