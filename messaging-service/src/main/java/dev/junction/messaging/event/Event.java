package dev.junction.messaging.event;

import java.time.Instant;
import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonRawValue;
import dev.junction.messaging.web.Cursor;

/**
 * A change, as stored and as served.
 *
 * @param id event id (time-ordered)
 * @param type what happened, e.g. {@code message.sent}
 * @param instanceId the instance it happened on
 * @param subjectId the resource that changed
 * @param payload the resource after the change, as JSON
 * @param createdAt when it happened
 */
public record Event(UUID id, String type, UUID instanceId, UUID subjectId, @JsonRawValue String payload,
		Instant createdAt) {

	/** This event's position in the event order. */
	public Cursor position() {
		return new Cursor(this.createdAt, this.id);
	}

	/** Whether this event comes after {@code other} in the event order. */
	public boolean isAfter(Cursor other) {
		int byTime = this.createdAt.compareTo(other.createdAt());
		return (byTime != 0) ? byTime > 0 : this.id.compareTo(other.id()) > 0;
	}

}
