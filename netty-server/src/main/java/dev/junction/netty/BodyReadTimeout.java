package dev.junction.netty;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.netty.channel.EventLoop;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.server.reactive.HttpHandler;
import org.springframework.http.server.reactive.HttpHandlerDecoratorFactory;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpRequestDecorator;
import org.springframework.http.server.reactive.ServerHttpResponse;

/**
 * Fails the reader of a request body with {@link RequestBodyTimeoutException} when no
 * part of it arrives for the read timeout, so that the application answers 408 in its own
 * shape ({@link RequestGuard} then closes the connection). The timer runs on the
 * connection's own event loop, where starting and cancelling it wakes no other thread.
 */
final class BodyReadTimeout implements HttpHandler {

	private static final Map<EventLoop, Scheduler> TIMERS = new ConcurrentHashMap<>();

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
		EventLoop loop = OwnEventLoopResponses.eventLoop(request);
		Scheduler timer = (loop != null) ? TIMERS.computeIfAbsent(loop, Schedulers::fromExecutorService)
				: Schedulers.parallel();
		return this.delegate.handle(new TimedBody(request, this.timeout, timer), response);
	}

	private static final class TimedBody extends ServerHttpRequestDecorator {

		private final Duration timeout;

		private final Scheduler timer;

		TimedBody(ServerHttpRequest delegate, Duration timeout, Scheduler timer) {
			super(delegate);
			this.timeout = timeout;
			this.timer = timer;
		}

		@Override
		public Flux<DataBuffer> getBody() {
			return super.getBody().timeout(this.timeout,
					Flux.error(() -> new RequestBodyTimeoutException(this.timeout)), this.timer);
		}

	}

}
