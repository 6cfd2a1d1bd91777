package dev.junction.messaging.webhook;

import java.time.Clock;

import dev.junction.messaging.common.Ids;
import dev.junction.messaging.common.Timestamps;
import dev.junction.messaging.event.Event;
import dev.junction.messaging.event.EventOutbox;
import reactor.core.publisher.Mono;

import org.springframework.stereotype.Component;

/**
 * Creates an event's deliveries, one per matching active subscription, in the transaction
 * that records the event: a delivery exists exactly when its event does, whichever
 * instance dispatches it and whatever happens to that instance afterwards.
 */
@Component
class DeliveryOutbox implements EventOutbox {

	private final WebhookRepository webhooks;

	private final DeliveryRepository deliveries;

	private final Clock clock;

	DeliveryOutbox(WebhookRepository webhooks, DeliveryRepository deliveries, Clock clock) {
		this.webhooks = webhooks;
		this.deliveries = deliveries;
		this.clock = clock;
	}

	@Override
	public Mono<Void> recorded(Event event) {
		if (event.instanceId() == null) {
			return Mono.empty();
		}
		return this.webhooks.findActiveByInstance(event.instanceId())
			.filter((webhook) -> webhook.accepts(event.type()))
			.concatMap((webhook) -> this.deliveries.insert(new Delivery(Ids.next(), webhook.id(), event.id(),
					event.instanceId(), DeliveryStatus.PENDING, 0, null, null, null, Timestamps.now(this.clock), null)))
			.count()
			.flatMap((created) -> (created > 0) ? this.deliveries.announce() : Mono.empty());
	}

}
