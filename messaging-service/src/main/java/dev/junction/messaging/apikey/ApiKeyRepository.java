package dev.junction.messaging.apikey;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.UUID;

import dev.junction.database.WholeResults;
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

/**
 * Storage of API keys. The instances a key is limited to are kept twice: in the key's row
 * (read with the key) and as rows of {@code api_key_instances} (queried when listing).
 */
@Repository
public class ApiKeyRepository {

	private static final String COLUMNS = "id, name, key_hash, key_prefix, scopes, instance_ids, created_at, expires_at, "
			+ "revoked_at";

	/**
	 * Keys limited to instances, every one of which is among {@code :callerInstances}.
	 */
	private static final String WITHIN_CALLER_INSTANCES = "EXISTS (SELECT 1 FROM api_key_instances i WHERE i.key_id = api_keys.id)"
			+ " AND NOT EXISTS (SELECT 1 FROM api_key_instances i WHERE i.key_id = api_keys.id"
			+ " AND i.instance_id NOT IN (:callerInstances))";

	private final DatabaseClient client;

	/** PostgreSQL channel notified with the id of every key issued or revoked. */
	public static final String CHANNEL = "junction_api_keys";

	public ApiKeyRepository(DatabaseClient client) {
		this.client = client;
	}

	/** Stores {@code key}; run it in a transaction, it writes several rows. */
	public Mono<ApiKey> insert(ApiKey key) {
		Mono<Void> row = this.client
			.sql("INSERT INTO api_keys (" + COLUMNS
					+ ") VALUES (:id, :name, :hash, :prefix, :scopes, :instances, :createdAt, :expiresAt, NULL)")
			.bind("id", key.id())
			.bind("name", key.name())
			.bind("hash", key.keyHash())
			.bind("prefix", key.keyPrefix())
			.bind("scopes", Rows.join(key.scopes()))
			.bind("instances", Parameter.fromOrEmpty(Rows.join(key.instanceIds()), String.class))
			.bind("createdAt", Timestamps.toDb(key.createdAt()))
			.bind("expiresAt",
					Parameter.fromOrEmpty((key.expiresAt() != null) ? Timestamps.toDb(key.expiresAt()) : null,
							OffsetDateTime.class))
			.then();
		Flux<Long> instances = Flux.fromIterable(key.instanceIds())
			.concatMap((instanceId) -> this.client
				.sql("INSERT INTO api_key_instances (key_id, instance_id) VALUES (:id, :instanceId)")
				.bind("id", key.id())
				.bind("instanceId", instanceId)
				.fetch()
				.rowsUpdated());
		return row.thenMany(instances).then(Mono.just(key));
	}

	public Mono<ApiKey> findByHash(String hash) {
		return WholeResults.one(this.client.sql("SELECT " + COLUMNS + " FROM api_keys WHERE key_hash = :hash")
			.bind("hash", hash)
			.map(ApiKeyRepository::map)
			.all());
	}

	public Mono<ApiKey> findById(UUID id) {
		return WholeResults.one(this.client.sql("SELECT " + COLUMNS + " FROM api_keys WHERE id = :id")
			.bind("id", id)
			.map(ApiKeyRepository::map)
			.all());
	}

	/**
	 * A page of the keys {@code caller} may manage ({@link Caller#canManage}), optionally
	 * only revoked or active ones, or those limited to {@code instanceId} among others.
	 */
	public Flux<ApiKey> page(Caller caller, Boolean revoked, UUID instanceId, PageRequest page) {
		Select select = Select.from("api_keys", COLUMNS);
		if (caller.restricted()) {
			select.where(WITHIN_CALLER_INSTANCES, "callerInstances", caller.instanceIds());
		}
		if (instanceId != null) {
			caller.requireInstance(instanceId);
			select.where("EXISTS (SELECT 1 FROM api_key_instances i WHERE i.key_id = api_keys.id"
					+ " AND i.instance_id = :instanceId)", "instanceId", instanceId);
		}
		if (revoked != null) {
			select.where(revoked ? "revoked_at IS NOT NULL" : "revoked_at IS NULL");
		}
		return select.page(this.client, page, ApiKeyRepository::map);
	}

	/** Marks the key revoked; emits the key as it was before, or nothing when unknown. */
	public Mono<ApiKey> revoke(UUID id, Instant at) {
		return findById(id).flatMap(
				(key) -> this.client.sql("UPDATE api_keys SET revoked_at = :at WHERE id = :id AND revoked_at IS NULL")
					.bind("at", Timestamps.toDb(at))
					.bind("id", id)
					.then()
					.thenReturn(key));
	}

	/**
	 * Tells every instance listening on {@link #CHANNEL} (PostgreSQL only) that the key
	 * {@code id} changed, when the current transaction commits.
	 */
	public Mono<Void> notifyChanged(UUID id) {
		return WholeResults.drained(this.client.sql("SELECT pg_notify('" + CHANNEL + "', :id)")
			.bind("id", id.toString())
			.map((row) -> true)
			.all());
	}

	/**
	 * Whether a key that manages every key (admin, every instance, not revoked nor
	 * expired) exists.
	 */
	public Mono<Boolean> unrestrictedAdminExists(Instant now) {
		return WholeResults.first(this.client
			.sql("SELECT id FROM api_keys WHERE revoked_at IS NULL AND instance_ids IS NULL AND scopes LIKE :admin "
					+ "AND (expires_at IS NULL OR expires_at > :now) LIMIT 1")
			.bind("admin", "%ADMIN%")
			.bind("now", Timestamps.toDb(now))
			.map((row) -> Boolean.TRUE)
			.all()).defaultIfEmpty(Boolean.FALSE);
	}

	private static ApiKey map(Readable row) {
		return new ApiKey(Rows.uuid(row, "id"), Rows.string(row, "name"), Rows.string(row, "key_hash"),
				Rows.string(row, "key_prefix"), Rows.set(row, "scopes", Scope::valueOf),
				Rows.set(row, "instance_ids", UUID::fromString), Rows.instant(row, "created_at"),
				Rows.instant(row, "expires_at"), Rows.instant(row, "revoked_at"));
	}

}
