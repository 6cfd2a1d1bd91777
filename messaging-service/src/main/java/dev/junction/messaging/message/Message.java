package dev.junction.messaging.message;

import java.time.Instant;
import java.util.Objects;
import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.junction.messaging.web.Cursor;

/**
 * A message in a chat.
 *
 * @param id message id (time-ordered)
 * @param chatId the chat
 * @param instanceId the chat's instance
 * @param direction inbound or outbound
 * @param type kind of content
 * @param status delivery state
 * @param text text or caption
 * @param media media reference
 * @param idempotencyKey the client's key for this send, if it gave one
 * @param timestamp when the service stored the message; the list order
 * @param updatedAt last status change
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Message(UUID id, UUID chatId, UUID instanceId, Direction direction, MessageType type,
		MessageStatus status, String text, Media media, String idempotencyKey, Instant timestamp, Instant updatedAt) {

	public Cursor position() {
		return new Cursor(this.timestamp, this.id);
	}

	/** Whether a retried send with these values is the same send. */
	boolean sameContent(UUID chatId, MessageType type, String text, Media media, Direction direction) {
		return this.chatId.equals(chatId) && this.type == type && this.direction == direction
				&& Objects.equals(this.text, text) && Objects.equals(this.media, media);
	}

}
