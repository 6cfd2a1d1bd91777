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

	/** Earliest instant a filter may name: the first of year 1. */
	static final Instant MIN = Instant.parse("0001-01-01T00:00:00Z");

	/** Latest instant a filter may name: the end of year 9999. */
	static final Instant MAX = Instant.parse("9999-12-31T23:59:59.999999Z");

	/**
	 * An ISO-8601 instant ({@code 2026-01-31T10:15:30Z} or with an offset) in years 1 to
	 * 9999, or null.
	 */
	public static Instant instant(String name, String value) {
		if (value == null || value.isBlank()) {
			return null;
		}
		Instant instant;
		try {
			instant = OffsetDateTime.parse(value).toInstant();
		}
		catch (DateTimeParseException ex) {
			throw ApiException.invalid(name, "not an ISO-8601 timestamp such as 2026-01-31T10:15:30Z");
		}
		if (instant.isBefore(MIN) || instant.isAfter(MAX)) {
			throw ApiException.invalid(name, "must be between the years 1 and 9999");
		}
		return instant;
	}

	/**
	 * {@code value}, which must not contain the NUL character (the database cannot store
	 * it).
	 */
	public static String text(String name, String value) {
		if (value != null && value.indexOf('\0') >= 0) {
			throw ApiException.invalid(name, "must not contain the NUL character (U+0000)");
		}
		return value;
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
			throw ApiException.invalid(name,
					"must be one of " + Arrays.stream(type.getEnumConstants()).map(id).toList());
		}
	}

}
