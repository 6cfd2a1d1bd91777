package dev.junction.mock.pipeline;

/**
 * Ends a stream's body on purpose where the connection cannot be reached directly: the
 * server closes the connection on an error after the headers were sent, and logs it.
 */
final class StreamTruncatedException extends RuntimeException {

	StreamTruncatedException(int events) {
		super("Stream truncated on purpose after " + events + " events", null, false, false);
	}

}
