package dev.junction.gateway.chat;

import dev.junction.gateway.error.InvalidRequestException;
import reactor.core.publisher.Mono;

import org.springframework.core.io.buffer.DataBufferLimitException;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.server.reactive.ServerHttpRequest;

/**
 * Reads request bodies up to the configured limit: a larger one is refused with 413
 * before parsing.
 */
public final class RequestBodies {

	private final long maxBytes;

	public RequestBodies(long maxBytes) {
		this.maxBytes = maxBytes;
	}

	public long maxBytes() {
		return this.maxBytes;
	}

	/** The whole body; empty bodies give an empty array. */
	public Mono<byte[]> read(ServerHttpRequest request) {
		long declared = request.getHeaders().getContentLength();
		if (declared > this.maxBytes) {
			return Mono.error(InvalidRequestException.bodyTooLarge(this.maxBytes));
		}
		return DataBufferUtils.join(request.getBody(), Math.toIntExact(Math.min(this.maxBytes, Integer.MAX_VALUE)))
			.map((buffer) -> {
				try {
					byte[] bytes = new byte[buffer.readableByteCount()];
					buffer.read(bytes);
					return bytes;
				}
				finally {
					DataBufferUtils.release(buffer);
				}
			})
			.defaultIfEmpty(new byte[0])
			.onErrorMap(DataBufferLimitException.class, (ex) -> InvalidRequestException.bodyTooLarge(this.maxBytes));
	}

	/** Whether a body is empty or only white space. */
	static boolean isBlank(byte[] body) {
		for (byte b : body) {
			if (b != ' ' && b != '\n' && b != '\r' && b != '\t') {
				return false;
			}
		}
		return true;
	}

}
