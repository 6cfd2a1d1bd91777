package dev.junction.messaging.web;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.Locale;
import java.util.function.Function;

/** Parsing of query parameters into typed values, with 400s that name the parameter. */
public final class QueryParams {

	private QueryParams() {
	}

	/** An ISO-8601 instant ({@code 2026-01-31T10:15:30Z} or with an offset), or null. */
	public static Instant instant(String name, String value) {
		if (value == null || value.isBlank()) {
			return null;
		}
		try {
			return OffsetDateTime.parse(value).toInstant();
		}
		catch (DateTimeParseException ex) {
			throw ApiException.invalid(name, "not an ISO-8601 timestamp such as 2026-01-31T10:15:30Z");
		}
	}

	/** The constant of {@code type} whose lower-case name is {@code value}, or null. */
	public static <E extends Enum<E>> E enumValue(String name, String value, Class<E> type) {
		if (value == null || value.isBlank()) {
			return null;
		}
		try {
			return Enum.valueOf(type, value.trim().toUpperCase(Locale.ROOT));
		}
		catch (IllegalArgumentException ex) {
			Function<E, String> id = (constant) -> constant.name().toLowerCase(Locale.ROOT);
			throw ApiException.invalid(name, "must be one of "
					+ Arrays.stream(type.getEnumConstants()).map(id).toList());
		}
	}

}
