package dev.junction.netty;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.netty.channel.EventLoop;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;
import reactor.netty.Connection;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.server.reactive.HttpHandler;
import org.springframework.http.server.reactive.HttpHandlerDecoratorFactory;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpRequestDecorator;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.http.server.reactive.ServerHttpResponseDecorator;

/**
 * Writes every response on the event loop of its own connection. Answers often arrive on
 * other threads (a database driver's, grpc-java's, Redis's, or another request's event
 * loop that handed over a pooled connection or a permit); a response completed from there
 * races Reactor Netty's handling of the next keep-alive request on the same connection,
 * which then is never read: the client waits forever. Moving the response's signals onto
 * the connection's loop makes the race rare; {@link ReadAfterResponse} closes what is
 * left of it (a request that arrives while the previous one is still finishing). A buffer
 * on its way to the loop when the client goes away is released, not dropped: a
 * {@code Mono}'s {@code publishOn} forgets the value it holds when cancelled, so a single
 * buffer takes a {@code Flux}'s, which hands what it holds to the discard hook.
 * <p>
 * The hang is Reactor Netty's: a keep-alive request buffered while the previous one was
 * still finishing leaves the connection without a pending read once the buffer drains
 * (reactor/reactor-netty#4361, "HTTP/1.1 keep-alive connection stops reading after a
 * queued request completes synchronously", fixed upstream in September 2026). The Reactor
 * Netty that Spring Boot manages here is 1.3.6. This decorator can go once the managed
 * version carries that fix and {@code KeepAliveIntegrationTests} in gateway-app and
 * messaging-service pass without it; it costs one hop onto the connection's event loop
 * per response that completes elsewhere; one already on that loop goes on at once.
 */
public final class OwnEventLoopResponses implements HttpHandler {

	private static final Map<EventLoop, Scheduler> SCHEDULERS = new ConcurrentHashMap<>();

	private final HttpHandler delegate;

	private OwnEventLoopResponses(HttpHandler delegate) {
		this.delegate = delegate;
	}

	/** The decorator that puts this handler in front of the application's. */
	public static HttpHandlerDecoratorFactory decorator() {
		return OwnEventLoopResponses::new;
	}

	@Override
	public Mono<Void> handle(ServerHttpRequest request, ServerHttpResponse response) {
		EventLoop loop = eventLoop(request);
		if (loop == null) {
			return this.delegate.handle(request, response);
		}
		return this.delegate.handle(request,
				new OnLoop(response, SCHEDULERS.computeIfAbsent(loop, OwnEventLoopResponses::scheduler)));
	}

	/**
	 * Runs a task at once when called on {@code loop}, otherwise hands it to the loop.
	 */
	private static Scheduler scheduler(EventLoop loop) {
		return Schedulers.fromExecutor((task) -> {
			if (loop.inEventLoop()) {
				task.run();
			}
			else {
				loop.execute(task);
			}
		});
	}

	/**
	 * The event loop of the request's connection, or null when it is not served by
	 * Reactor Netty.
	 */
	static @Nullable EventLoop eventLoop(ServerHttpRequest request) {
		Object nativeRequest = ServerHttpRequestDecorator.getNativeRequest(request);
		return (nativeRequest instanceof Connection connection) ? connection.channel().eventLoop() : null;
	}

	private static final class OnLoop extends ServerHttpResponseDecorator {

		private final Scheduler loop;

		OnLoop(ServerHttpResponse delegate, Scheduler loop) {
			super(delegate);
			this.loop = loop;
		}

		@Override
		public Mono<Void> writeWith(Publisher<? extends DataBuffer> body) {
			if (body instanceof Mono<? extends DataBuffer> single) {
				return super.writeWith(released(Flux.<DataBuffer>from(single).publishOn(this.loop, 1).singleOrEmpty()));
			}
			return super.writeWith(released(Flux.<DataBuffer>from(body).publishOn(this.loop)));
		}

		@Override
		public Mono<Void> writeAndFlushWith(Publisher<? extends Publisher<? extends DataBuffer>> body) {
			return super.writeAndFlushWith(Flux.from(body)
				.map((chunk) -> released(Flux.<DataBuffer>from(chunk).publishOn(this.loop)))
				.publishOn(this.loop));
		}

		private static Mono<DataBuffer> released(Mono<DataBuffer> body) {
			return body.doOnDiscard(DataBuffer.class, DataBufferUtils::release);
		}

		private static Flux<DataBuffer> released(Flux<DataBuffer> body) {
			return body.doOnDiscard(DataBuffer.class, DataBufferUtils::release);
		}

		@Override
		public Mono<Void> setComplete() {
			return Mono.defer(super::setComplete).subscribeOn(this.loop);
		}

	}

}
