package dev.junction.messaging.message;

import java.time.Instant;
import java.util.UUID;

import dev.junction.database.WholeResults;
import dev.junction.messaging.apikey.Caller;
import dev.junction.messaging.common.Timestamps;
import dev.junction.messaging.db.Rows;
import dev.junction.messaging.db.Select;
import dev.junction.messaging.web.PageRequest;
import io.r2dbc.spi.Readable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.r2dbc.core.Parameter;
import org.springframework.stereotype.Repository;

/** Storage of messages. */
@Repository
public class MessageRepository {

	static final String COLUMNS = "id, chat_id, instance_id, direction, type, status, text, media_url, media_mime_type, "
			+ "idempotency_key, created_at, updated_at";

	private final DatabaseClient client;

	public MessageRepository(DatabaseClient client) {
		this.client = client;
	}

	public Mono<Message> insert(Message message) {
		Media media = message.media();
		return this.client
			.sql("INSERT INTO messages (" + COLUMNS
					+ ") VALUES (:id, :chatId, :instanceId, :direction, :type, :status, "
					+ ":text, :mediaUrl, :mediaMimeType, :idempotencyKey, :createdAt, :updatedAt)")
			.bind("id", message.id())
			.bind("chatId", message.chatId())
			.bind("instanceId", message.instanceId())
			.bind("direction", message.direction().name())
			.bind("type", message.type().name())
			.bind("status", message.status().name())
			.bind("text", Parameter.fromOrEmpty(message.text(), String.class))
			.bind("mediaUrl", Parameter.fromOrEmpty((media != null) ? media.url() : null, String.class))
			.bind("mediaMimeType", Parameter.fromOrEmpty((media != null) ? media.mimeType() : null, String.class))
			.bind("idempotencyKey", Parameter.fromOrEmpty(message.idempotencyKey(), String.class))
			.bind("createdAt", Timestamps.toDb(message.timestamp()))
			.bind("updatedAt", Timestamps.toDb(message.updatedAt()))
			.then()
			.thenReturn(message);
	}

	public Mono<Message> findById(UUID id) {
		return WholeResults.one(this.client.sql("SELECT " + COLUMNS + " FROM messages WHERE id = :id")
			.bind("id", id)
			.map(MessageRepository::map)
			.all());
	}

	public Mono<Message> findByIdempotencyKey(UUID instanceId, String key) {
		return WholeResults.one(this.client
			.sql("SELECT " + COLUMNS + " FROM messages WHERE instance_id = :instanceId AND idempotency_key = :key")
			.bind("instanceId", instanceId)
			.bind("key", key)
			.map(MessageRepository::map)
			.all());
	}

	public Mono<Long> updateStatus(UUID id, MessageStatus status, Instant at) {
		return this.client.sql("UPDATE messages SET status = :status, updated_at = :at WHERE id = :id")
			.bind("status", status.name())
			.bind("at", Timestamps.toDb(at))
			.bind("id", id)
			.fetch()
			.rowsUpdated();
	}

	public Flux<Message> page(Caller caller, MessageFilter filter, PageRequest page) {
		Select select = Select.from("messages", COLUMNS)
			.equal("chat_id", filter.chatId())
			.visibleTo(caller, "instance_id", filter.instanceId())
			.where("direction = :direction", "direction",
					(filter.direction() != null) ? filter.direction().name() : null)
			.where("type = :type", "type", (filter.type() != null) ? filter.type().name() : null)
			.where("status = :status", "status", (filter.status() != null) ? filter.status().name() : null)
			.where("created_at >= :since", "since", filter.since())
			.where("created_at < :until", "until", filter.until())
			.where("text ILIKE :text", "text", (filter.text() != null) ? "%" + escapeLike(filter.text()) + "%" : null);
		return select.page(this.client, page, MessageRepository::map);
	}

	private static String escapeLike(String text) {
		return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_");
	}

	static Message map(Readable row) {
		String mediaUrl = Rows.string(row, "media_url");
		Media media = (mediaUrl != null) ? new Media(mediaUrl, Rows.string(row, "media_mime_type")) : null;
		return new Message(Rows.uuid(row, "id"), Rows.uuid(row, "chat_id"), Rows.uuid(row, "instance_id"),
				Direction.valueOf(Rows.string(row, "direction")), MessageType.valueOf(Rows.string(row, "type")),
				MessageStatus.valueOf(Rows.string(row, "status")), Rows.string(row, "text"), media,
				Rows.string(row, "idempotency_key"), Rows.instant(row, "created_at"), Rows.instant(row, "updated_at"));
	}

	/**
	 * Which messages to list.
	 *
	 * @param chatId only this chat's messages
	 * @param instanceId only this instance's messages
	 * @param direction only inbound or outbound
	 * @param type only this kind of content
	 * @param status only this delivery state
	 * @param since only messages at or after this time
	 * @param until only messages before this time
	 * @param text only messages whose text contains this (case-insensitive)
	 */
	public record MessageFilter(UUID chatId, UUID instanceId, Direction direction, MessageType type,
			MessageStatus status, Instant since, Instant until, String text) {
	}

}
