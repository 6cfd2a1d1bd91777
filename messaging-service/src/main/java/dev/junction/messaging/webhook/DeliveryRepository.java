package dev.junction.messaging.webhook;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.UUID;

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

/** Storage of webhook deliveries and their attempts. */
@Repository
public class DeliveryRepository {

	private static final String COLUMNS = "id, webhook_id, event_id, instance_id, status, attempts, last_status_code, "
			+ "last_error, delivered_at, created_at, updated_at";

	private static final int MAX_ERROR = 1000;

	private final DatabaseClient client;

	public DeliveryRepository(DatabaseClient client) {
		this.client = client;
	}

	public Mono<Delivery> insert(Delivery delivery) {
		return this.client
			.sql("INSERT INTO webhook_deliveries (" + COLUMNS + ") VALUES (:id, :webhookId, :eventId, :instanceId, :status, 0, "
					+ "NULL, NULL, NULL, :createdAt, :createdAt)")
			.bind("id", delivery.id())
			.bind("webhookId", delivery.webhookId())
			.bind("eventId", delivery.eventId())
			.bind("instanceId", delivery.instanceId())
			.bind("status", delivery.status().name())
			.bind("createdAt", Timestamps.toDb(delivery.createdAt()))
			.then()
			.thenReturn(delivery);
	}

	public Mono<Delivery> findById(UUID id) {
		return this.client.sql("SELECT " + COLUMNS + " FROM webhook_deliveries WHERE id = :id")
			.bind("id", id)
			.map(DeliveryRepository::map)
			.one();
	}

	/** How many deliveries are dead letters. */
	public Mono<Long> countDead() {
		return this.client.sql("SELECT COUNT(*) FROM webhook_deliveries WHERE status = 'DEAD'")
			.map((row) -> row.get(0, Long.class))
			.one();
	}

	/** Records one attempt: delivered on success, retrying otherwise. */
	public Mono<Long> recordAttempt(UUID id, boolean delivered, Integer statusCode, String error, Instant at) {
		String status = delivered ? DeliveryStatus.DELIVERED.name() : DeliveryStatus.RETRYING.name();
		return this.client
			.sql("UPDATE webhook_deliveries SET status = :status, attempts = attempts + 1, last_status_code = :code, "
					+ "last_error = :error, delivered_at = :deliveredAt, updated_at = :at WHERE id = :id")
			.bind("status", status)
			.bind("code", Parameter.fromOrEmpty(statusCode, Integer.class))
			.bind("error", Parameter.fromOrEmpty(truncate(error), String.class))
			.bind("deliveredAt", Parameter.fromOrEmpty(delivered ? Timestamps.toDb(at) : null, OffsetDateTime.class))
			.bind("at", Timestamps.toDb(at))
			.bind("id", id)
			.fetch()
			.rowsUpdated();
	}

	/**
	 * Ends an unfinished delivery with {@code status} (dead after the last attempt, cancelled
	 * when its subscription is paused); emits 0 when it had already ended or is gone.
	 */
	public Mono<Long> finish(UUID id, DeliveryStatus status, Instant at) {
		return this.client
			.sql("UPDATE webhook_deliveries SET status = :status, updated_at = :at WHERE id = :id "
					+ "AND status IN ('PENDING', 'RETRYING')")
			.bind("status", status.name())
			.bind("at", Timestamps.toDb(at))
			.bind("id", id)
			.fetch()
			.rowsUpdated();
	}

	/** Cancels every unfinished delivery to {@code webhookId} (the subscription was paused). */
	public Mono<Long> cancelUnfinished(UUID webhookId, Instant at) {
		return this.client
			.sql("UPDATE webhook_deliveries SET status = 'CANCELLED', updated_at = :at WHERE webhook_id = :webhookId "
					+ "AND status IN ('PENDING', 'RETRYING')")
			.bind("at", Timestamps.toDb(at))
			.bind("webhookId", webhookId)
			.fetch()
			.rowsUpdated();
	}

	/**
	 * Moves a dead letter back to pending; emits 0 when the delivery is no longer dead (a
	 * concurrent retry got there first).
	 */
	public Mono<Long> revive(UUID id, Instant at) {
		return this.client
			.sql("UPDATE webhook_deliveries SET status = 'PENDING', updated_at = :at WHERE id = :id AND status = 'DEAD'")
			.bind("at", Timestamps.toDb(at))
			.bind("id", id)
			.fetch()
			.rowsUpdated();
	}

	/** Deliveries not yet delivered nor dead, oldest first (to resume them after a restart). */
	public Flux<Delivery> findUnfinished(int limit) {
		return this.client
			.sql("SELECT " + COLUMNS + " FROM webhook_deliveries WHERE status IN ('PENDING', 'RETRYING') "
					+ "ORDER BY created_at, id LIMIT " + limit)
			.map(DeliveryRepository::map)
			.all();
	}

	public Flux<Delivery> page(Caller caller, UUID instanceId, UUID webhookId, DeliveryStatus status, PageRequest page) {
		return Select.from("webhook_deliveries", COLUMNS)
			.visibleTo(caller, "instance_id", instanceId)
			.equal("webhook_id", webhookId)
			.where("status = :status", "status", (status != null) ? status.name() : null)
			.page(this.client, page)
			.map(DeliveryRepository::map)
			.all();
	}

	private static String truncate(String error) {
		return (error != null && error.length() > MAX_ERROR) ? error.substring(0, MAX_ERROR) : error;
	}

	private static Delivery map(Readable row) {
		return new Delivery(Rows.uuid(row, "id"), Rows.uuid(row, "webhook_id"), Rows.uuid(row, "event_id"),
				Rows.uuid(row, "instance_id"), DeliveryStatus.valueOf(Rows.string(row, "status")),
				Rows.integer(row, "attempts"), Rows.integer(row, "last_status_code"), Rows.string(row, "last_error"),
				Rows.instant(row, "delivered_at"), Rows.instant(row, "created_at"), Rows.instant(row, "updated_at"));
	}

}
