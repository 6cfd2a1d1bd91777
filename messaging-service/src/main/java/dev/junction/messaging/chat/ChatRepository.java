package dev.junction.messaging.chat;

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

/** Storage of chats and their denormalised counters. */
@Repository
public class ChatRepository {

	private static final String COLUMNS = "id, instance_id, remote_id, name, type, archived, pinned, muted, "
			+ "message_count, unread_count, last_message_at, created_at, updated_at";

	private final DatabaseClient client;

	public ChatRepository(DatabaseClient client) {
		this.client = client;
	}

	public Mono<Chat> insert(Chat chat) {
		return this.client
			.sql("INSERT INTO chats (" + COLUMNS
					+ ") VALUES (:id, :instanceId, :remoteId, :name, :type, FALSE, FALSE, FALSE, "
					+ "0, 0, NULL, :createdAt, :updatedAt)")
			.bind("id", chat.id())
			.bind("instanceId", chat.instanceId())
			.bind("remoteId", chat.remoteId())
			.bind("name", Parameter.fromOrEmpty(chat.name(), String.class))
			.bind("type", chat.type().name())
			.bind("createdAt", Timestamps.toDb(chat.createdAt()))
			.bind("updatedAt", Timestamps.toDb(chat.updatedAt()))
			.then()
			.thenReturn(chat);
	}

	public Mono<Chat> findById(UUID id) {
		return WholeResults.one(this.client.sql("SELECT " + COLUMNS + " FROM chats WHERE id = :id")
			.bind("id", id)
			.map(ChatRepository::map)
			.all());
	}

	/** Applies {@code action}; emits the number of rows changed. */
	public Mono<Long> apply(UUID id, ChatAction action, Instant at) {
		return this.client.sql("UPDATE chats SET " + action.assignment() + ", updated_at = :at WHERE id = :id")
			.bind("at", Timestamps.toDb(at))
			.bind("id", id)
			.fetch()
			.rowsUpdated();
	}

	public Mono<Long> rename(UUID id, String name, Instant at) {
		return this.client.sql("UPDATE chats SET name = :name, updated_at = :at WHERE id = :id")
			.bind("name", name)
			.bind("at", Timestamps.toDb(at))
			.bind("id", id)
			.fetch()
			.rowsUpdated();
	}

	/**
	 * Counts a new message into the chat's counters; run in the transaction that inserts
	 * the message.
	 */
	public Mono<Long> recordMessage(UUID id, boolean unread, Instant at) {
		return this.client
			.sql("UPDATE chats SET message_count = message_count + 1, unread_count = unread_count + :unread, "
					+ "last_message_at = CASE WHEN last_message_at IS NULL OR last_message_at < :at THEN :at ELSE last_message_at END, "
					+ "updated_at = :at WHERE id = :id")
			.bind("unread", unread ? 1 : 0)
			.bind("at", Timestamps.toDb(at))
			.bind("id", id)
			.fetch()
			.rowsUpdated();
	}

	public Flux<Chat> page(Caller caller, ChatFilter filter, PageRequest page) {
		return Select.from("chats", COLUMNS)
			.visibleTo(caller, "instance_id", filter.instanceId())
			.where("type = :type", "type", (filter.type() != null) ? filter.type().name() : null)
			.where("archived = :archived", "archived", filter.archived())
			.where("pinned = :pinned", "pinned", filter.pinned())
			.where("muted = :muted", "muted", filter.muted())
			.page(this.client, page, ChatRepository::map);
	}

	private static Chat map(Readable row) {
		return new Chat(Rows.uuid(row, "id"), Rows.uuid(row, "instance_id"), Rows.string(row, "remote_id"),
				Rows.string(row, "name"), ChatType.valueOf(Rows.string(row, "type")), Rows.bool(row, "archived"),
				Rows.bool(row, "pinned"), Rows.bool(row, "muted"), Rows.longValue(row, "message_count"),
				Rows.longValue(row, "unread_count"), Rows.instant(row, "last_message_at"),
				Rows.instant(row, "created_at"), Rows.instant(row, "updated_at"));
	}

	/**
	 * Which chats to list.
	 *
	 * @param instanceId only this instance's chats
	 * @param type only this kind
	 * @param archived only archived (true) or not archived (false) chats
	 * @param pinned only pinned (true) or unpinned (false) chats
	 * @param muted only muted (true) or unmuted (false) chats
	 */
	public record ChatFilter(UUID instanceId, ChatType type, Boolean archived, Boolean pinned, Boolean muted) {
	}

}
