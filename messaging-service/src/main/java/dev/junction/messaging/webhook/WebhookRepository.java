package dev.junction.messaging.webhook;

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
import org.springframework.stereotype.Repository;

/** Storage of webhook subscriptions. */
@Repository
public class WebhookRepository {

	private static final String COLUMNS = "id, instance_id, url, event_types, secret, active, created_at, updated_at";

	private final DatabaseClient client;

	public WebhookRepository(DatabaseClient client) {
		this.client = client;
	}

	public Mono<Webhook> insert(Webhook webhook) {
		return this.client
			.sql("INSERT INTO webhooks (" + COLUMNS
					+ ") VALUES (:id, :instanceId, :url, :types, :secret, :active, :createdAt, :updatedAt)")
			.bind("id", webhook.id())
			.bind("instanceId", webhook.instanceId())
			.bind("url", webhook.url())
			.bind("types", Rows.join(webhook.eventTypes()))
			.bind("secret", webhook.secret())
			.bind("active", webhook.active())
			.bind("createdAt", Timestamps.toDb(webhook.createdAt()))
			.bind("updatedAt", Timestamps.toDb(webhook.updatedAt()))
			.then()
			.thenReturn(webhook);
	}

	public Mono<Webhook> update(Webhook webhook) {
		return this.client.sql(
				"UPDATE webhooks SET url = :url, event_types = :types, active = :active, updated_at = :updatedAt WHERE id = :id")
			.bind("id", webhook.id())
			.bind("url", webhook.url())
			.bind("types", Rows.join(webhook.eventTypes()))
			.bind("active", webhook.active())
			.bind("updatedAt", Timestamps.toDb(webhook.updatedAt()))
			.then()
			.thenReturn(webhook);
	}

	public Mono<Webhook> findById(UUID id) {
		return WholeResults.one(this.client.sql("SELECT " + COLUMNS + " FROM webhooks WHERE id = :id")
			.bind("id", id)
			.map(WebhookRepository::map)
			.all());
	}

	public Flux<Webhook> findActiveByInstance(UUID instanceId) {
		return WholeResults.all(this.client
			.sql("SELECT " + COLUMNS + " FROM webhooks WHERE instance_id = :instanceId AND active = TRUE")
			.bind("instanceId", instanceId)
			.map(WebhookRepository::map)
			.all());
	}

	public Mono<Long> delete(UUID id) {
		return this.client.sql("DELETE FROM webhooks WHERE id = :id").bind("id", id).fetch().rowsUpdated();
	}

	public Flux<Webhook> page(Caller caller, UUID instanceId, PageRequest page) {
		return Select.from("webhooks", COLUMNS)
			.visibleTo(caller, "instance_id", instanceId)
			.page(this.client, page, WebhookRepository::map);
	}

	private static Webhook map(Readable row) {
		return new Webhook(Rows.uuid(row, "id"), Rows.uuid(row, "instance_id"), Rows.string(row, "url"),
				Rows.set(row, "event_types", (type) -> type), Rows.string(row, "secret"), Rows.bool(row, "active"),
				Rows.instant(row, "created_at"), Rows.instant(row, "updated_at"));
	}

}
