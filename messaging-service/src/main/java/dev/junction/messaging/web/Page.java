package dev.junction.messaging.web;

import java.util.List;
import java.util.function.Function;

/**
 * A page of a keyset-paginated list.
 *
 * @param items the rows, newest first
 * @param meta where the next page starts
 * @param <T> row type
 */
public record Page<T>(List<T> items, Meta meta) {

	/**
	 * Paging state.
	 *
	 * @param nextCursor cursor of the next page, null on the last page
	 * @param hasMore whether a next page exists
	 * @param limit the page size used
	 */
	public record Meta(String nextCursor, boolean hasMore, int limit) {
	}

	/**
	 * A page from {@code rows}, fetched with one row more than the limit to learn whether
	 * another page exists.
	 */
	public static <T> Page<T> of(List<T> rows, PageRequest request, Function<T, Cursor> position) {
		boolean hasMore = rows.size() > request.limit();
		List<T> items = hasMore ? List.copyOf(rows.subList(0, request.limit())) : rows;
		String next = hasMore ? position.apply(items.get(items.size() - 1)).encode() : null;
		return new Page<>(items, new Meta(next, hasMore, request.limit()));
	}

	/** This page with every item mapped. */
	public <R> Page<R> map(Function<T, R> mapper) {
		return new Page<>(this.items.stream().map(mapper).toList(), this.meta);
	}

}
