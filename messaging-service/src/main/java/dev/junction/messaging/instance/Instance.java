package dev.junction.messaging.instance;

import java.time.Instant;
import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonRawValue;
import dev.junction.messaging.web.Cursor;

/**
 * A connection to one account on a messaging network.
 *
 * @param id instance id
 * @param name unique name
 * @param channel the network
 * @param status connection state
 * @param settings channel-specific settings, a JSON object
 * @param createdAt creation time
 * @param updatedAt last change
 */
public record Instance(UUID id, String name, Channel channel, InstanceStatus status, @JsonRawValue String settings,
		Instant createdAt, Instant updatedAt) {

	public Cursor position() {
		return new Cursor(this.createdAt, this.id);
	}

}
