package dev.junction.messaging.instance;

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

/** Storage of instances. */
@Repository
public class InstanceRepository {

	private static final String COLUMNS = "id, name, channel, status, settings, created_at, updated_at";

	private final DatabaseClient client;

	public InstanceRepository(DatabaseClient client) {
		this.client = client;
	}

	public Mono<Instance> insert(Instance instance) {
		return this.client
			.sql("INSERT INTO instances (" + COLUMNS
					+ ") VALUES (:id, :name, :channel, :status, :settings, :createdAt, :updatedAt)")
			.bind("id", instance.id())
			.bind("name", instance.name())
			.bind("channel", instance.channel().name())
			.bind("status", instance.status().name())
			.bind("settings", instance.settings())
			.bind("createdAt", Timestamps.toDb(instance.createdAt()))
			.bind("updatedAt", Timestamps.toDb(instance.updatedAt()))
			.then()
			.thenReturn(instance);
	}

	public Mono<Instance> update(Instance instance) {
		return this.client.sql(
				"UPDATE instances SET name = :name, status = :status, settings = :settings, updated_at = :updatedAt WHERE id = :id")
			.bind("id", instance.id())
			.bind("name", instance.name())
			.bind("status", instance.status().name())
			.bind("settings", instance.settings())
			.bind("updatedAt", Timestamps.toDb(instance.updatedAt()))
			.then()
			.thenReturn(instance);
	}

	public Mono<Instance> findById(UUID id) {
		return WholeResults.one(this.client.sql("SELECT " + COLUMNS + " FROM instances WHERE id = :id")
			.bind("id", id)
			.map(InstanceRepository::map)
			.all());
	}

	/** The instance, locked against concurrent changes until the transaction ends. */
	public Mono<Instance> findByIdForUpdate(UUID id) {
		return WholeResults.one(this.client.sql("SELECT " + COLUMNS + " FROM instances WHERE id = :id FOR UPDATE")
			.bind("id", id)
			.map(InstanceRepository::map)
			.all());
	}

	public Mono<Long> delete(UUID id) {
		return this.client.sql("DELETE FROM instances WHERE id = :id").bind("id", id).fetch().rowsUpdated();
	}

	public Flux<Instance> page(Caller caller, Channel channel, InstanceStatus status, PageRequest page) {
		return Select.from("instances", COLUMNS)
			.visibleTo(caller, "id", null)
			.where("channel = :channel", "channel", (channel != null) ? channel.name() : null)
			.where("status = :status", "status", (status != null) ? status.name() : null)
			.page(this.client, page, InstanceRepository::map);
	}

	private static Instance map(Readable row) {
		return new Instance(Rows.uuid(row, "id"), Rows.string(row, "name"),
				Channel.valueOf(Rows.string(row, "channel")), InstanceStatus.valueOf(Rows.string(row, "status")),
				Rows.string(row, "settings"), Rows.instant(row, "created_at"), Rows.instant(row, "updated_at"));
	}

}
