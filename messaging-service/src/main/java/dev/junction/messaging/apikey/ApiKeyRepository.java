package dev.junction.messaging.apikey;

import java.time.Instant;
import java.util.UUID;

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

/** Storage of API keys. */
@Repository
public class ApiKeyRepository {

	private static final String COLUMNS = "id, name, key_hash, key_prefix, scopes, instance_ids, created_at, revoked_at";

	private final DatabaseClient client;

	public ApiKeyRepository(DatabaseClient client) {
		this.client = client;
	}

	public Mono<ApiKey> insert(ApiKey key) {
		return this.client
			.sql("INSERT INTO api_keys (" + COLUMNS + ") VALUES (:id, :name, :hash, :prefix, :scopes, :instances, :createdAt, NULL)")
			.bind("id", key.id())
			.bind("name", key.name())
			.bind("hash", key.keyHash())
			.bind("prefix", key.keyPrefix())
			.bind("scopes", Rows.join(key.scopes()))
			.bind("instances", Parameter.fromOrEmpty(Rows.join(key.instanceIds()), String.class))
			.bind("createdAt", Timestamps.toDb(key.createdAt()))
			.then()
			.thenReturn(key);
	}

	public Mono<ApiKey> findByHash(String hash) {
		return this.client.sql("SELECT " + COLUMNS + " FROM api_keys WHERE key_hash = :hash")
			.bind("hash", hash)
			.map(ApiKeyRepository::map)
			.one();
	}

	public Mono<ApiKey> findById(UUID id) {
		return this.client.sql("SELECT " + COLUMNS + " FROM api_keys WHERE id = :id")
			.bind("id", id)
			.map(ApiKeyRepository::map)
			.one();
	}

	public Flux<ApiKey> page(Boolean revoked, PageRequest page) {
		Select select = Select.from("api_keys", COLUMNS);
		if (revoked != null) {
			select.where(revoked ? "revoked_at IS NOT NULL" : "revoked_at IS NULL");
		}
		return select.page(this.client, page).map(ApiKeyRepository::map).all();
	}

	/** Marks the key revoked; emits the key as it was before, or nothing when unknown. */
	public Mono<ApiKey> revoke(UUID id, Instant at) {
		return findById(id).flatMap((key) -> this.client
			.sql("UPDATE api_keys SET revoked_at = :at WHERE id = :id AND revoked_at IS NULL")
			.bind("at", Timestamps.toDb(at))
			.bind("id", id)
			.then()
			.thenReturn(key));
	}

	/** Whether any active key holds the admin scope. */
	public Mono<Boolean> activeAdminExists() {
		return this.client.sql("SELECT id FROM api_keys WHERE revoked_at IS NULL AND scopes LIKE :admin LIMIT 1")
			.bind("admin", "%ADMIN%")
			.map((row) -> Boolean.TRUE)
			.first()
			.defaultIfEmpty(Boolean.FALSE);
	}

	private static ApiKey map(Readable row) {
		return new ApiKey(Rows.uuid(row, "id"), Rows.string(row, "name"), Rows.string(row, "key_hash"),
				Rows.string(row, "key_prefix"), Rows.set(row, "scopes", Scope::valueOf),
				Rows.set(row, "instance_ids", UUID::fromString), Rows.instant(row, "created_at"),
				Rows.instant(row, "revoked_at"));
	}

}
