package dev.junction.mock.stats;

/**
 * How a request ended. Every counted request ends exactly once; a request still running
 * has no outcome yet.
 */
public enum Outcome {

	/** A complete answer: the JSON body, or a stream up to its last event. */
	OK,

	/** An error status: injected, forced by a header, or a bad request. */
	ERROR,

	/** The client went away (or cancelled) before the answer was complete. */
	CANCELLED,

	/** A stream cut off on purpose before its last event. */
	TRUNCATED,

	/** A connection reset on purpose instead of an answer. */
	RESET;

	/** The name used in {@code /mock/stats} and as the {@code outcome} tag. */
	public String tag() {
		return name().toLowerCase();
	}

}
