package dev.junction.messaging.common;

import java.time.Clock;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;

/**
 * Timestamps at the database's precision (microseconds), so cursors round-trip exactly.
 */
public final class Timestamps {

	private Timestamps() {
	}

	/** The current instant of {@code clock}, truncated to microseconds. */
	public static Instant now(Clock clock) {
		return clock.instant().truncatedTo(ChronoUnit.MICROS);
	}

	/**
	 * {@code instant} as the type both R2DBC drivers bind to
	 * {@code TIMESTAMP WITH TIME ZONE}.
	 */
	public static OffsetDateTime toDb(Instant instant) {
		return OffsetDateTime.ofInstant(instant, ZoneOffset.UTC);
	}

	/** A column value read back as an instant, or null. */
	public static Instant fromDb(OffsetDateTime value) {
		return (value != null) ? value.toInstant() : null;
	}

}
