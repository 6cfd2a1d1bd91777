package dev.junction.messaging.web;

/**
 * One page to fetch: at most {@code limit} rows after {@code cursor} (newest first).
 *
 * @param limit rows per page, 1 to 100
 * @param cursor position after which to start, or null for the first page
 */
public record PageRequest(int limit, Cursor cursor) {

	/** Default page size. */
	public static final int DEFAULT_LIMIT = 50;

	/** Largest page size. */
	public static final int MAX_LIMIT = 100;

	/**
	 * The page described by the {@code limit} and {@code cursor} query parameters (either
	 * may be null).
	 */
	public static PageRequest of(Integer limit, String cursor) {
		int size = (limit != null) ? limit : DEFAULT_LIMIT;
		if (size < 1 || size > MAX_LIMIT) {
			throw ApiException.invalid("limit", "must be between 1 and " + MAX_LIMIT);
		}
		return new PageRequest(size, (cursor != null && !cursor.isBlank()) ? Cursor.decode(cursor) : null);
	}

}
