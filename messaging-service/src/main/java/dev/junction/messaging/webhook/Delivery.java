package dev.junction.messaging.webhook;

import java.time.Instant;
import java.util.UUID;

import dev.junction.messaging.web.Cursor;

/**
 * One event sent (or to be sent) to one subscription.
 *
 * @param id delivery id, sent in {@code X-Junction-Delivery-Id}
 * @param webhookId the subscription
 * @param eventId the event, sent in {@code X-Junction-Event-Id}
 * @param instanceId the event's instance
 * @param status where the delivery stands
 * @param attempts attempts made so far
 * @param lastStatusCode HTTP status of the last attempt, if any answer came
 * @param lastError why the last attempt failed
 * @param deliveredAt when the receiver accepted it
 * @param createdAt creation time
 * @param updatedAt last change
 */
public record Delivery(UUID id, UUID webhookId, UUID eventId, UUID instanceId, DeliveryStatus status, int attempts,
		Integer lastStatusCode, String lastError, Instant deliveredAt, Instant createdAt, Instant updatedAt) {

	public Cursor position() {
		return new Cursor(this.createdAt, this.id);
	}

}
