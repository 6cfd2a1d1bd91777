package dev.junction.gateway.vkey;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Locale;

/**
 * Over what time a budget runs, in UTC: a day, a calendar month, or the key's whole life.
 */
public enum Period {

	DAILY, MONTHLY, TOTAL;

	/** The first day of the period that holds {@code now}. */
	public LocalDate start(Instant now) {
		LocalDate today = LocalDate.ofInstant(now, ZoneOffset.UTC);
		return switch (this) {
			case DAILY -> today;
			case MONTHLY -> today.withDayOfMonth(1);
			case TOTAL -> LocalDate.EPOCH;
		};
	}

	/**
	 * When the period that holds {@code now} ends, or null for a budget that never
	 * resets.
	 */
	public Instant end(Instant now) {
		LocalDate start = start(now);
		return switch (this) {
			case DAILY -> start.plusDays(1).atStartOfDay(ZoneOffset.UTC).toInstant();
			case MONTHLY -> start.plusMonths(1).atStartOfDay(ZoneOffset.UTC).toInstant();
			case TOTAL -> null;
		};
	}

	public String id() {
		return name().toLowerCase(Locale.ROOT);
	}

	/** The period named {@code id} (daily, monthly, total), or null. */
	public static Period of(String id) {
		for (Period period : values()) {
			if (period.id().equalsIgnoreCase(id)) {
				return period;
			}
		}
		return null;
	}

}
