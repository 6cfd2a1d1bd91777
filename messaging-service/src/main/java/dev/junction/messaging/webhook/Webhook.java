package dev.junction.messaging.webhook;

import java.time.Instant;
import java.util.Set;
import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonIgnore;
import dev.junction.messaging.web.Cursor;

/**
 * A subscription: events of some types on one instance are POSTed to a URL.
 *
 * @param id subscription id
 * @param instanceId the instance whose events are delivered
 * @param url where deliveries are POSTed
 * @param eventTypes the event types delivered; {@code *} for all
 * @param secret key of the HMAC-SHA256 signature (never listed)
 * @param active whether deliveries are made
 * @param createdAt creation time
 * @param updatedAt last change
 */
public record Webhook(UUID id, UUID instanceId, String url, Set<String> eventTypes, @JsonIgnore String secret,
		boolean active, Instant createdAt, Instant updatedAt) {

	/** Every event type. */
	public static final String ALL = "*";

	/** Whether events of {@code type} are delivered to this subscription. */
	public boolean accepts(String type) {
		return this.active && (this.eventTypes.contains(ALL) || this.eventTypes.contains(type));
	}

	public Cursor position() {
		return new Cursor(this.createdAt, this.id);
	}

}
