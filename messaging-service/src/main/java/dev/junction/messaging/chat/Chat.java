package dev.junction.messaging.chat;

import java.time.Instant;
import java.util.UUID;

import dev.junction.messaging.web.Cursor;

/**
 * A conversation on an instance, with counters kept up to date by every message insert.
 *
 * @param id chat id
 * @param instanceId the instance it belongs to
 * @param remoteId the network's id for the conversation (phone number, channel id...)
 * @param name display name
 * @param type kind of conversation
 * @param archived whether archived
 * @param pinned whether pinned
 * @param muted whether muted
 * @param messageCount messages in the chat
 * @param unreadCount inbound messages not yet marked read
 * @param lastMessageAt time of the newest message
 * @param createdAt creation time
 * @param updatedAt last change
 */
public record Chat(UUID id, UUID instanceId, String remoteId, String name, ChatType type, boolean archived,
		boolean pinned, boolean muted, long messageCount, long unreadCount, Instant lastMessageAt, Instant createdAt,
		Instant updatedAt) {

	public Cursor position() {
		return new Cursor(this.createdAt, this.id);
	}

}
