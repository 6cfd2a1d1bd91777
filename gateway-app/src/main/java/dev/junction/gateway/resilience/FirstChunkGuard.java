package dev.junction.gateway.resilience;

import java.util.concurrent.atomic.AtomicBoolean;

import reactor.core.publisher.Flux;

/**
 * Marks failures of a stream that come after its first chunk, so that retry and fallback
 * leave them alone: once a chunk has reached the client, the stream cannot be replayed.
 */
final class FirstChunkGuard {

	private FirstChunkGuard() {
	}

	/**
	 * The stream, with failures after its first chunk wrapped in {@link AfterFirstChunk}.
	 */
	static <T> Flux<T> mark(Flux<T> stream) {
		return Flux.defer(() -> {
			AtomicBoolean emitted = new AtomicBoolean();
			return stream.doOnNext((chunk) -> emitted.set(true))
				.onErrorMap((error) -> emitted.get() && !(error instanceof AfterFirstChunk), AfterFirstChunk::new);
		});
	}

	/** The stream with marked failures turned back into what they were. */
	static <T> Flux<T> unmark(Flux<T> stream) {
		return stream.onErrorMap(AfterFirstChunk.class, Throwable::getCause);
	}

	/** A failure after the first chunk. */
	static final class AfterFirstChunk extends RuntimeException {

		AfterFirstChunk(Throwable cause) {
			super(cause.getMessage(), cause, false, false);
		}

	}

}
