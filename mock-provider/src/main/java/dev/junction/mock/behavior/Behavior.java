package dev.junction.mock.behavior;

/**
 * How the emulator answers one request, resolved from the properties and the request's
 * headers.
 *
 * @param latencyMs delay before the answer
 * @param chunkDelayMs delay between two stream events
 * @param errorStatus HTTP error status to answer with, or 0 to answer normally
 * @param retryAfterSeconds Retry-After value on 429/503/529 answers; 0 sends none
 * @param completionTokens completion tokens of the answer, before the request's
 * max_tokens bound
 * @param streamChunks content chunks of a stream; 0 is one chunk per token
 * @param truncateAfter stream events after which the connection is closed, or -1 to
 * finish normally
 * @param stall never answer
 * @param reset reset the connection instead of answering
 */
public record Behavior(long latencyMs, long chunkDelayMs, int errorStatus, long retryAfterSeconds, int completionTokens,
		int streamChunks, int truncateAfter, boolean stall, boolean reset) {

	/** Whether the answer is an error status rather than a completion. */
	public boolean failing() {
		return errorStatus != 0;
	}

	/** Whether a stream is cut off before its end. */
	public boolean truncating() {
		return truncateAfter >= 0;
	}
}
