package dev.junction.messaging.db;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;

import dev.junction.database.WholeResults;
import dev.junction.messaging.apikey.Caller;
import dev.junction.messaging.common.Timestamps;
import dev.junction.messaging.web.PageRequest;
import io.r2dbc.spi.Readable;
import reactor.core.publisher.Flux;

import org.springframework.r2dbc.core.DatabaseClient;

/**
 * A keyset-paginated query on one table: filters joined with AND, then
 * {@code ORDER BY created_at DESC, id DESC} after the page's cursor, with one row more
 * than the page size so the caller learns whether another page exists.
 */
public final class Select {

	private final String from;

	private final List<String> conditions = new ArrayList<>();

	private final Map<String, Object> parameters = new LinkedHashMap<>();

	private Select(String from) {
		this.from = from;
	}

	/** A query of {@code columns} from {@code table}. */
	public static Select from(String table, String columns) {
		return new Select("SELECT " + columns + " FROM " + table);
	}

	/**
	 * Adds {@code condition} using parameter {@code name}, unless {@code value} is null.
	 */
	public Select where(String condition, String name, Object value) {
		if (value != null) {
			this.conditions.add(condition);
			this.parameters.put(name, (value instanceof Instant instant) ? Timestamps.toDb(instant) : value);
		}
		return this;
	}

	/** Adds {@code condition}, which has no parameter. */
	public Select where(String condition) {
		this.conditions.add(condition);
		return this;
	}

	/** {@code column = :name}, unless {@code value} is null. */
	public Select equal(String column, Object value) {
		return where(column + " = :" + column, column, value);
	}

	/** {@code column IN (:name)}. */
	public Select in(String column, String name, Collection<?> values) {
		this.conditions.add(column + " IN (:" + name + ")");
		this.parameters.put(name, values);
		return this;
	}

	/**
	 * Restricts rows to the instances {@code caller} may see: {@code instanceId} when
	 * given (403 when the caller may not see it), else every instance the key is
	 * restricted to.
	 */
	public Select visibleTo(Caller caller, String column, UUID instanceId) {
		if (instanceId != null) {
			caller.requireInstance(instanceId);
			return where(column + " = :visibleInstance", "visibleInstance", instanceId);
		}
		if (caller.restricted()) {
			return in(column, "visibleInstances", caller.instanceIds());
		}
		return this;
	}

	/**
	 * The rows of {@code page}, each mapped, read to their end even when the caller goes
	 * away ({@link WholeResults}).
	 */
	public <T> Flux<T> page(DatabaseClient client, PageRequest page, Function<? super Readable, T> mapper) {
		if (page.cursor() != null) {
			where("(created_at, id) < (:cursorAt, :cursorId)", "cursorAt", page.cursor().createdAt());
			this.parameters.put("cursorId", page.cursor().id());
		}
		StringBuilder sql = new StringBuilder(this.from);
		if (!this.conditions.isEmpty()) {
			sql.append(" WHERE ").append(String.join(" AND ", this.conditions));
		}
		sql.append(" ORDER BY created_at DESC, id DESC LIMIT ").append(page.limit() + 1);
		return WholeResults.all(client.sql(sql.toString()).bindValues(this.parameters).map(mapper).all());
	}

}
