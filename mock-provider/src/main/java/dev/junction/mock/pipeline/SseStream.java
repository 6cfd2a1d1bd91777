package dev.junction.mock.pipeline;

/**
 * The events of one streamed answer, made on demand in order. The last event is the one
 * that ends the stream ({@code data: [DONE]}, {@code message_stop}); a truncated stream
 * never sends it.
 */
public interface SseStream {

	/** How many events the stream has, its end included. */
	int size();

	/** One event, with its framing ({@code data: ...\n\n}), as UTF-8. */
	byte[] event(int index);

}
