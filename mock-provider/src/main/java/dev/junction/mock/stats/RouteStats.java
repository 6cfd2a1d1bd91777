package dev.junction.mock.stats;

/**
 * Counts for one route since start or the last reset.
 *
 * @param requests requests received
 * @param streams requests answered with a stream
 * @param ok requests answered completely
 * @param errors requests answered with an error status
 * @param cancelled requests whose client went away before the answer was complete
 * @param truncated streams cut off on purpose
 * @param resets connections reset on purpose
 */
public record RouteStats(long requests, long streams, long ok, long errors, long cancelled, long truncated,
		long resets) {

	static final RouteStats ZERO = new RouteStats(0, 0, 0, 0, 0, 0, 0);

	RouteStats minus(RouteStats other) {
		return new RouteStats(requests - other.requests, streams - other.streams, ok - other.ok, errors - other.errors,
				cancelled - other.cancelled, truncated - other.truncated, resets - other.resets);
	}
}
