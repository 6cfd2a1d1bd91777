package dev.junction.mock.pipeline;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.netty.channel.AbortedException;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferLimitException;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.web.reactive.function.server.ServerRequest;

/**
 * Reads a request body whole, bounded in size and in the wait for each next piece,
 * counting what arrived.
 */
final class BodyReader {

	private static final byte[] NO_BODY = new byte[0];

	private static final int PREFETCH = 64;

	private final ServerHttpRequest request;

	private final int maxBytes;

	private final Duration readTimeout;

	private final AtomicLong received = new AtomicLong();

	BodyReader(ServerRequest request, int maxBytes, Duration readTimeout) {
		this.request = request.exchange().getRequest();
		this.maxBytes = maxBytes;
		this.readTimeout = readTimeout;
	}

	/**
	 * The body, empty when there is none. Fails with {@link TimeoutException} when no
	 * bytes arrive for the read timeout, with {@link DataBufferLimitException} past the
	 * size bound.
	 */
	Mono<byte[]> read() {
		// A bounded demand: with an unbounded one, Reactor Netty 1.3 signals a connection
		// reset to the
		// body's subscriber twice, and Reactor logs the second at ERROR as dropped.
		Flux<DataBuffer> body = this.request.getBody()
			.limitRate(PREFETCH)
			.doOnNext((buffer) -> this.received.addAndGet(buffer.readableByteCount()))
			.timeout(this.readTimeout);
		return DataBufferUtils.join(body, this.maxBytes).map(BodyReader::bytes).defaultIfEmpty(NO_BODY);
	}

	/**
	 * How much of the body arrived: {@code 8 of 100 bytes received}, or
	 * {@code 8 bytes received} when chunked.
	 */
	String progress() {
		long announced = this.request.getHeaders().getContentLength();
		return (announced >= 0) ? this.received.get() + " of " + announced + " bytes received"
				: this.received.get() + " bytes received";
	}

	/**
	 * Whether a failure to read the body means that the client closed or reset its
	 * connection.
	 */
	static boolean clientWentAway(Throwable error) {
		return error instanceof AbortedException || error instanceof IOException
				|| AbortedException.isConnectionReset(error);
	}

	private static byte[] bytes(DataBuffer buffer) {
		try {
			byte[] bytes = new byte[buffer.readableByteCount()];
			buffer.read(bytes);
			return bytes;
		}
		finally {
			DataBufferUtils.release(buffer);
		}
	}

}
