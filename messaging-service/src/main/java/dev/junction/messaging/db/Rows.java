package dev.junction.messaging.db;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Collectors;

import dev.junction.messaging.common.Timestamps;
import io.r2dbc.spi.Readable;

/** Reading typed values from R2DBC rows, the same way on PostgreSQL and H2. */
public final class Rows {

	private Rows() {
	}

	public static UUID uuid(Readable row, String column) {
		return row.get(column, UUID.class);
	}

	public static Instant instant(Readable row, String column) {
		return Timestamps.fromDb(row.get(column, OffsetDateTime.class));
	}

	public static String string(Readable row, String column) {
		return row.get(column, String.class);
	}

	public static long longValue(Readable row, String column) {
		Number value = row.get(column, Number.class);
		return (value != null) ? value.longValue() : 0L;
	}

	public static Integer integer(Readable row, String column) {
		Number value = row.get(column, Number.class);
		return (value != null) ? value.intValue() : null;
	}

	public static boolean bool(Readable row, String column) {
		Boolean value = row.get(column, Boolean.class);
		return Boolean.TRUE.equals(value);
	}

	/** A comma-separated column as a set (empty for null). */
	public static <T> Set<T> set(Readable row, String column, Function<String, T> parser) {
		String value = row.get(column, String.class);
		if (value == null || value.isBlank()) {
			return Set.of();
		}
		return Arrays.stream(value.split(","))
			.map(String::trim)
			.map(parser)
			.collect(Collectors.toCollection(LinkedHashSet::new));
	}

	/** {@code values} as a comma-separated column value (null for empty). */
	public static String join(Collection<?> values) {
		if (values == null || values.isEmpty()) {
			return null;
		}
		return values.stream().map(String::valueOf).collect(Collectors.joining(","));
	}

}
