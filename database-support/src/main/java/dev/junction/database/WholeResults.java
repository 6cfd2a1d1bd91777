package dev.junction.database;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Query results read to their end even when whoever asked for them has gone away (a
 * client that disconnects cancels its request). r2dbc-postgresql does not release the
 * rows that are still on their way when a query is cancelled: their network buffers are
 * lost to Netty's pool and its leak detector reports each at ERROR. A query wrapped here
 * keeps reading after a cancellation, each row mapped and released as usual and the
 * mapped value dropped, and its connection goes back to the pool when the result ends.
 * Meant for bounded reads (a page of a list, a record by its key): the rest of the result
 * is read at once, whatever the subscriber asked for.
 */
public final class WholeResults {

	private WholeResults() {
	}

	/** {@code rows}, read to their end whatever the subscriber does. */
	public static <T> Flux<T> all(Flux<T> rows) {
		return Flux.create((sink) -> rows.contextWrite(sink.contextView()).subscribe(sink::next, (error) -> {
			// A failure after the subscriber left concerns nobody.
			if (!sink.isCancelled()) {
				sink.error(error);
			}
		}, sink::complete));
	}

	/**
	 * The only row of {@code rows}, or none, read as {@link #all}; a second row is an
	 * {@link IndexOutOfBoundsException}.
	 */
	public static <T> Mono<T> one(Flux<T> rows) {
		return all(rows).singleOrEmpty();
	}

	/**
	 * Completes once {@code rows} have been read to their end, as {@link #all}: for a
	 * statement run for its effect that answers with rows all the same (a lock taken, a
	 * notification sent), whose rows come after its subscriber has gone if it left while
	 * the statement waited.
	 */
	public static Mono<Void> drained(Flux<?> rows) {
		return all(rows).then();
	}

	/** The first row of {@code rows}, or none; the others are read and dropped. */
	public static <T> Mono<T> first(Flux<T> rows) {
		return all(rows).next();
	}

}
