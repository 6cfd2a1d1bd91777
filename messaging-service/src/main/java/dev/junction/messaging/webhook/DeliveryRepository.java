package dev.junction.messaging.webhook;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.UUID;

import dev.junction.database.Notifications;
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

/** Storage of webhook deliveries and their attempts. */
@Repository
public class DeliveryRepository {

	private static final String COLUMNS = "id, webhook_id, event_id, instance_id, status, attempts, last_status_code, "
			+ "last_error, delivered_at, created_at, updated_at";

	private static final int MAX_ERROR = 1000;

	/** PostgreSQL channel notified when deliveries are ready to be claimed. */
	public static final String CHANNEL = "junction_deliveries";

	private final DatabaseClient client;

	private final boolean shared;

	public DeliveryRepository(DatabaseClient client, Notifications notifications) {
		this.client = client;
		this.shared = notifications.shared();
	}

	public Mono<Delivery> insert(Delivery delivery) {
		return this.client
			.sql("INSERT INTO webhook_deliveries (" + COLUMNS + ", next_attempt_at) VALUES (:id, :webhookId, :eventId, "
					+ ":instanceId, :status, 0, NULL, NULL, NULL, :createdAt, :createdAt, :createdAt)")
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
		return WholeResults.one(this.client.sql("SELECT " + COLUMNS + " FROM webhook_deliveries WHERE id = :id")
			.bind("id", id)
			.map(DeliveryRepository::map)
			.all());
	}

	/** How many deliveries are dead letters. */
	public Mono<Long> countDead() {
		return WholeResults.one(this.client.sql("SELECT COUNT(*) FROM webhook_deliveries WHERE status = 'DEAD'")
			.map((row) -> row.get(0, Long.class))
			.all());
	}

	/** Tells every instance (PostgreSQL only), on commit, that deliveries are ready. */
	public Mono<Void> announce() {
		return this.shared
				? WholeResults
					.drained(this.client.sql("SELECT pg_notify('" + CHANNEL + "', '')").map((row) -> true).all())
				: Mono.empty();
	}

	/**
	 * Leases up to {@code limit} unfinished deliveries that are due at {@code now} and
	 * not leased to anyone, to {@code owner} until {@code until}. Rows another instance
	 * is claiming at the same moment are skipped, not waited for. Run it in a
	 * transaction.
	 */
	public Flux<Claim> claim(UUID owner, Instant now, Instant until, int limit) {
		String lock = this.shared ? " FOR UPDATE SKIP LOCKED" : " FOR UPDATE";
		return this.client
			.sql("SELECT " + COLUMNS
					+ ", round_attempts FROM webhook_deliveries WHERE status IN ('PENDING', 'RETRYING') "
					+ "AND next_attempt_at <= :now AND (lease_until IS NULL OR lease_until < :now) "
					+ "ORDER BY next_attempt_at LIMIT " + limit + lock)
			.bind("now", Timestamps.toDb(now))
			.map((row) -> new Claim(map(row), Rows.integer(row, "round_attempts")))
			.all()
			.collectList()
			.flatMapMany((claims) -> claims.isEmpty() ? Flux.empty() : this.client
				.sql("UPDATE webhook_deliveries SET lease_owner = :owner, lease_until = :until WHERE id IN (:ids)")
				.bind("owner", owner)
				.bind("until", Timestamps.toDb(until))
				.bind("ids", claims.stream().map((claim) -> claim.delivery().id()).toList())
				.then()
				.thenMany(Flux.fromIterable(claims)));
	}

	/**
	 * Ends every lease {@code owner} holds, so other instances may take those deliveries
	 * at once.
	 */
	public Mono<Long> release(UUID owner) {
		return this.client
			.sql("UPDATE webhook_deliveries SET lease_owner = NULL, lease_until = NULL WHERE lease_owner = :owner")
			.bind("owner", owner)
			.fetch()
			.rowsUpdated();
	}

	/**
	 * Records one attempt made under {@code owner}'s lease, and ends the lease: delivered
	 * on success; otherwise due again at {@code retryAt}, or dead when that is null. A
	 * delivery cancelled meanwhile stays cancelled. Emits 0 when the lease was no longer
	 * {@code owner}'s.
	 */
	public Mono<Long> recordAttempt(UUID id, UUID owner, boolean delivered, Integer statusCode, String error,
			Instant at, Instant retryAt) {
		DeliveryStatus status = delivered ? DeliveryStatus.DELIVERED
				: (retryAt != null) ? DeliveryStatus.RETRYING : DeliveryStatus.DEAD;
		return this.client
			.sql("UPDATE webhook_deliveries SET status = CASE WHEN status = 'CANCELLED' THEN status ELSE :status END, "
					+ "attempts = attempts + 1, round_attempts = round_attempts + 1, last_status_code = :code, "
					+ "last_error = :error, delivered_at = :deliveredAt, next_attempt_at = :retryAt, updated_at = :at, "
					+ "lease_owner = NULL, lease_until = NULL WHERE id = :id AND lease_owner = :owner")
			.bind("status", status.name())
			.bind("code", Parameter.fromOrEmpty(statusCode, Integer.class))
			.bind("error", Parameter.fromOrEmpty(truncate(error), String.class))
			.bind("deliveredAt", Parameter.fromOrEmpty(delivered ? Timestamps.toDb(at) : null, OffsetDateTime.class))
			.bind("retryAt",
					Parameter.fromOrEmpty((retryAt != null) ? Timestamps.toDb(retryAt) : null, OffsetDateTime.class))
			.bind("at", Timestamps.toDb(at))
			.bind("id", id)
			.bind("owner", owner)
			.fetch()
			.rowsUpdated();
	}

	/**
	 * Ends an unfinished delivery with {@code status} (cancelled when its subscription is
	 * paused); emits 0 when it had already ended or is gone.
	 */
	public Mono<Long> finish(UUID id, DeliveryStatus status, Instant at) {
		return this.client.sql(
				"UPDATE webhook_deliveries SET status = :status, updated_at = :at, lease_owner = NULL, lease_until = NULL "
						+ "WHERE id = :id AND status IN ('PENDING', 'RETRYING')")
			.bind("status", status.name())
			.bind("at", Timestamps.toDb(at))
			.bind("id", id)
			.fetch()
			.rowsUpdated();
	}

	/**
	 * Cancels every unfinished delivery to {@code webhookId} (the subscription was
	 * paused).
	 */
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
			.sql("UPDATE webhook_deliveries SET status = 'PENDING', round_attempts = 0, next_attempt_at = :at, "
					+ "updated_at = :at, lease_owner = NULL, lease_until = NULL WHERE id = :id AND status = 'DEAD'")
			.bind("at", Timestamps.toDb(at))
			.bind("id", id)
			.fetch()
			.rowsUpdated();
	}

	public Flux<Delivery> page(Caller caller, UUID instanceId, UUID webhookId, DeliveryStatus status,
			PageRequest page) {
		return Select.from("webhook_deliveries", COLUMNS)
			.visibleTo(caller, "instance_id", instanceId)
			.equal("webhook_id", webhookId)
			.where("status = :status", "status", (status != null) ? status.name() : null)
			.page(this.client, page, DeliveryRepository::map);
	}

	private static String truncate(String error) {
		return (error != null && error.length() > MAX_ERROR) ? error.substring(0, MAX_ERROR) : error;
	}

	/**
	 * A delivery leased for one attempt.
	 *
	 * @param delivery the delivery as claimed
	 * @param roundAttempts attempts made since it was created or last revived from the
	 * dead letters
	 */
	public record Claim(Delivery delivery, int roundAttempts) {
	}

	private static Delivery map(Readable row) {
		return new Delivery(Rows.uuid(row, "id"), Rows.uuid(row, "webhook_id"), Rows.uuid(row, "event_id"),
				Rows.uuid(row, "instance_id"), DeliveryStatus.valueOf(Rows.string(row, "status")),
				Rows.integer(row, "attempts"), Rows.integer(row, "last_status_code"), Rows.string(row, "last_error"),
				Rows.instant(row, "delivered_at"), Rows.instant(row, "created_at"), Rows.instant(row, "updated_at"));
	}

}
