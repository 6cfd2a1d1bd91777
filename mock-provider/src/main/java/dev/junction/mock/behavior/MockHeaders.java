package dev.junction.mock.behavior;

/**
 * Request headers that change how the emulator answers one request, and the headers it
 * answers with.
 */
public final class MockHeaders {

	/**
	 * Delay in milliseconds before the answer, replacing {@code junction.mock.latency-ms}
	 * and the jitter.
	 */
	public static final String LATENCY_MS = "x-mock-latency-ms";

	/**
	 * Delay in milliseconds between two stream events, replacing
	 * {@code junction.mock.chunk-delay-ms}.
	 */
	public static final String CHUNK_DELAY_MS = "x-mock-chunk-delay-ms";

	/** HTTP error status (400..599) to answer with, in the provider's error shape. */
	public static final String STATUS = "x-mock-status";

	/**
	 * Retry-After seconds for this request's 429/503/529 answer, replacing
	 * {@code junction.mock.retry-after-seconds}.
	 */
	public static final String RETRY_AFTER = "x-mock-retry-after";

	/**
	 * Completion tokens of this answer, replacing
	 * {@code junction.mock.completion-tokens}.
	 */
	public static final String COMPLETION_TOKENS = "x-mock-completion-tokens";

	/** Content chunks of this stream, replacing {@code junction.mock.stream-chunks}. */
	public static final String STREAM_CHUNKS = "x-mock-stream-chunks";

	/** Stream events after which the connection is closed without the stream's end. */
	public static final String TRUNCATE_AFTER = "x-mock-truncate-after";

	/** {@code true}: never answer; the request hangs until the client gives up. */
	public static final String STALL = "x-mock-stall";

	/** {@code true}: reset the TCP connection instead of answering. */
	public static final String RESET = "x-mock-reset";

	/** Response header: the last four characters of the API key the request presented. */
	public static final String KEY_SUFFIX = "x-mock-key-suffix";

	private MockHeaders() {
	}

}
