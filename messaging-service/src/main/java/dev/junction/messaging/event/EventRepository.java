package dev.junction.messaging.event;

import java.time.Instant;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

import dev.junction.database.WholeResults;
import dev.junction.messaging.apikey.Caller;
import dev.junction.messaging.common.Timestamps;
import dev.junction.messaging.db.Rows;
import dev.junction.messaging.db.Select;
import dev.junction.messaging.web.Cursor;
import dev.junction.messaging.web.PageRequest;
import io.r2dbc.spi.Readable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.r2dbc.core.DatabaseClient.GenericExecuteSpec;
import org.springframework.r2dbc.core.Parameter;
import org.springframework.stereotype.Repository;

/** Storage of events. */
@Repository
public class EventRepository {

	/** PostgreSQL channel notified with the id of every event committed. */
	public static final String CHANNEL = "junction_events";

	/** Advisory lock that orders event commits (the bytes of "junction"). */
	static final long ORDER_LOCK = 0x6a756e6374696f6eL;

	private static final String COLUMNS = "id, instance_id, type, subject_id, payload, created_at";

	/**
	 * Inserts an event at or just after the last one, and notifies {@link #CHANNEL} with
	 * its id on commit.
	 */
	private static final String INSERT_SHARED = "WITH last AS (SELECT created_at, id FROM events "
			+ "ORDER BY created_at DESC, id DESC LIMIT 1), stored AS (INSERT INTO events (" + COLUMNS + ") "
			+ "SELECT :id, :instanceId, :type, :subjectId, :payload, CASE WHEN last.id IS NULL OR "
			+ "(CAST(:createdAt AS TIMESTAMPTZ), CAST(:id AS UUID)) > (last.created_at, last.id) "
			+ "THEN CAST(:createdAt AS TIMESTAMPTZ) ELSE last.created_at + INTERVAL '1 microsecond' END "
			+ "FROM (SELECT 1) AS one LEFT JOIN last ON TRUE RETURNING id, created_at) "
			+ "SELECT created_at, pg_notify('" + CHANNEL + "', CAST(id AS TEXT)) FROM stored";

	private final DatabaseClient client;

	public EventRepository(DatabaseClient client) {
		this.client = client;
	}

	public Mono<Event> insert(Event event) {
		String sql = "INSERT INTO events (" + COLUMNS
				+ ") VALUES (:id, :instanceId, :type, :subjectId, :payload, :createdAt)";
		return bind(this.client.sql(sql), event).then().thenReturn(event);
	}

	/**
	 * Waits for the turn to write events on a PostgreSQL database other instances write
	 * to as well, held until the current transaction ends, so events commit in their
	 * stream order and a listener reading after the last position it saw skips none.
	 */
	public Mono<Void> takeTurn() {
		return WholeResults
			.drained(this.client.sql("SELECT pg_advisory_xact_lock(" + ORDER_LOCK + ")").map((row) -> true).all());
	}

	/**
	 * Inserts {@code event}, during the current transaction's {@link #takeTurn() turn},
	 * and notifies {@link #CHANNEL} with its id on commit. An event placed before the
	 * last one committed (its instance's clock is behind) moves just after it.
	 */
	public Mono<Event> insertShared(Event event) {
		return WholeResults
			.one(bind(this.client.sql(INSERT_SHARED), event).map((row) -> Rows.instant(row, "created_at")).all())
			.map((createdAt) -> new Event(event.id(), event.type(), event.instanceId(), event.subjectId(),
					event.payload(), createdAt));
	}

	/** The newest event's position, if any. */
	public Mono<Cursor> lastPosition() {
		return WholeResults
			.one(this.client.sql("SELECT created_at, id FROM events ORDER BY created_at DESC, id DESC LIMIT 1")
				.map((row) -> new Cursor(Rows.instant(row, "created_at"), Rows.uuid(row, "id")))
				.all());
	}

	/**
	 * Up to {@code limit} events of every instance after {@code position}, oldest first.
	 */
	public Flux<Event> after(Cursor position, int limit) {
		return this.client
			.sql("SELECT " + COLUMNS + " FROM events WHERE (created_at, id) > (:at, :id) ORDER BY created_at, id LIMIT "
					+ limit)
			.bind("at", Timestamps.toDb(position.createdAt()))
			.bind("id", position.id())
			.map(EventRepository::map)
			.all();
	}

	public Mono<Event> findById(UUID id) {
		return WholeResults.one(this.client.sql("SELECT " + COLUMNS + " FROM events WHERE id = :id")
			.bind("id", id)
			.map(EventRepository::map)
			.all());
	}

	/** A page of events, newest first. */
	public Flux<Event> page(Caller caller, EventFilter filter, PageRequest page) {
		Select select = Select.from("events", COLUMNS).visibleTo(caller, "instance_id", filter.instanceId());
		if (!filter.types().isEmpty()) {
			select.in("type", "types", filter.types());
		}
		select.where("created_at >= :since", "since", filter.since())
			.where("created_at < :until", "until", filter.until());
		return select.page(this.client, page, EventRepository::map);
	}

	/**
	 * Up to {@code limit} events after {@code position}, oldest first (for stream
	 * replay).
	 */
	public Flux<Event> after(Caller caller, EventFilter filter, Cursor position, int limit) {
		StringBuilder sql = new StringBuilder("SELECT " + COLUMNS + " FROM events WHERE (created_at, id) > (:at, :id)");
		Map<String, Object> parameters = new LinkedHashMap<>();
		parameters.put("at", Timestamps.toDb(position.createdAt()));
		parameters.put("id", position.id());
		if (filter.instanceId() != null) {
			sql.append(" AND instance_id = :instanceId");
			parameters.put("instanceId", filter.instanceId());
		}
		else if (caller.restricted()) {
			sql.append(" AND instance_id IN (:instances)");
			parameters.put("instances", caller.instanceIds());
		}
		if (!filter.types().isEmpty()) {
			sql.append(" AND type IN (:types)");
			parameters.put("types", filter.types());
		}
		sql.append(" ORDER BY created_at, id LIMIT ").append(limit);
		return WholeResults.all(this.client.sql(sql.toString()).bindValues(parameters).map(EventRepository::map).all());
	}

	private static GenericExecuteSpec bind(GenericExecuteSpec spec, Event event) {
		return spec.bind("id", event.id())
			.bind("instanceId", Parameter.fromOrEmpty(event.instanceId(), UUID.class))
			.bind("type", event.type())
			.bind("subjectId", Parameter.fromOrEmpty(event.subjectId(), UUID.class))
			.bind("payload", event.payload())
			.bind("createdAt", Timestamps.toDb(event.createdAt()));
	}

	static Event map(Readable row) {
		return new Event(Rows.uuid(row, "id"), Rows.string(row, "type"), Rows.uuid(row, "instance_id"),
				Rows.uuid(row, "subject_id"), Rows.string(row, "payload"), Rows.instant(row, "created_at"));
	}

	/**
	 * Which events to list or stream.
	 *
	 * @param instanceId only this instance's events, or null
	 * @param types only these types (empty: all)
	 * @param since only events at or after this time, or null
	 * @param until only events before this time, or null
	 */
	public record EventFilter(UUID instanceId, Collection<String> types, Instant since, Instant until) {

		/**
		 * Whether a live {@code event} passes this filter (time bounds do not apply to
		 * streams).
		 */
		public boolean matches(Event event) {
			return (this.instanceId == null || this.instanceId.equals(event.instanceId()))
					&& (this.types.isEmpty() || this.types.contains(event.type()));
		}

	}

}
