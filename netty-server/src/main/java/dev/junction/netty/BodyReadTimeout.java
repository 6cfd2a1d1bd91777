package dev.junction.netty;

import java.time.Duration;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.server.reactive.HttpHandler;
import org.springframework.http.server.reactive.HttpHandlerDecoratorFactory;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpRequestDecorator;
import org.springframework.http.server.reactive.ServerHttpResponse;

/**
 * Fails the reader of a request body with {@link RequestBodyTimeoutException} when no part of
 * it arrives for the read timeout, so that the application answers 408 in its own shape
 * ({@link RequestGuard} then closes the connection).
 */
final class BodyReadTimeout implements HttpHandler {

	private final HttpHandler delegate;

	private final Duration timeout;

	private BodyReadTimeout(HttpHandler delegate, Duration timeout) {
		this.delegate = delegate;
		this.timeout = timeout;
	}

	static HttpHandlerDecoratorFactory decorator(Duration timeout) {
		return (handler) -> new BodyReadTimeout(handler, timeout);
	}

	@Override
	public Mono<Void> handle(ServerHttpRequest request, ServerHttpResponse response) {
		return this.delegate.handle(new TimedBody(request, this.timeout), response);
	}

	private static final class TimedBody extends ServerHttpRequestDecorator {

		private final Duration timeout;

		TimedBody(ServerHttpRequest delegate, Duration timeout) {
			super(delegate);
			this.timeout = timeout;
		}

		@Override
		public Flux<DataBuffer> getBody() {
			return super.getBody().timeout(this.timeout,
					Flux.error(() -> new RequestBodyTimeoutException(this.timeout)));
		}

	}

}
