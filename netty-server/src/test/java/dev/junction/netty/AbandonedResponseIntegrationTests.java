package dev.junction.netty;

import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferFactory;
import org.springframework.core.io.buffer.PooledDataBuffer;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.ServerResponse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.springframework.web.reactive.function.server.RequestPredicates.GET;
import static org.springframework.web.reactive.function.server.RouterFunctions.route;

/**
 * A response body that arrives from another thread after its client went away (a database
 * read that finishes anyway, an encoder already running) is released on its way to the
 * connection's event loop, not dropped with its pooled buffer.
 */
class AbandonedResponseIntegrationTests {

	@RegisterExtension
	static final RunningServer server = new RunningServer(Application.class);

	private static volatile CompletableFuture<DataBuffer> body = new CompletableFuture<>();

	@RepeatedTest(3)
	void releasesASingleBufferThatArrivesAfterTheClientLeft() throws Exception {
		assertReleasedAfterLeaving("/single");
	}

	@RepeatedTest(3)
	void releasesAStreamedBufferThatArrivesAfterTheClientLeft() throws Exception {
		assertReleasedAfterLeaving("/stream");
	}

	private void assertReleasedAfterLeaving(String path) throws Exception {
		body = new CompletableFuture<>();
		try (Socket socket = new Socket("127.0.0.1", server.port())) {
			socket.getOutputStream()
				.write(("GET " + path + " HTTP/1.1\r\nHost: localhost\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
			Thread.sleep(100);
			socket.setSoLinger(true, 0);
		}
		DataBuffer buffer = body.get(5, TimeUnit.SECONDS);
		await().atMost(Duration.ofSeconds(5))
			.untilAsserted(() -> assertThat(((PooledDataBuffer) buffer).isAllocated()).isFalse());
	}

	/**
	 * A body that ignores its cancellation and then sends one pooled buffer from another
	 * thread, as a result that is read to its end does.
	 */
	static Publisher<DataBuffer> lateBody(DataBufferFactory buffers) {
		AtomicBoolean cancelled = new AtomicBoolean();
		return (Subscriber<? super DataBuffer> subscriber) -> subscriber.onSubscribe(new Subscription() {

			@Override
			public void request(long n) {
			}

			@Override
			public void cancel() {
				if (cancelled.getAndSet(true)) {
					return;
				}
				new Thread(() -> {
					DataBuffer buffer = buffers.allocateBuffer(64).write("late".getBytes(StandardCharsets.UTF_8));
					body.complete(buffer);
					subscriber.onNext(buffer);
					subscriber.onComplete();
				}).start();
			}

		});
	}

	@SpringBootConfiguration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	@Import(NettyServerConfiguration.class)
	static class Application {

		@Bean
		RouterFunction<ServerResponse> routes() {
			return route(GET("/single"),
					(request) -> ServerResponse.ok()
						.body((response, context) -> response.writeWith(Mono.from(lateBody(response.bufferFactory())))))
				.andRoute(GET("/stream"), (request) -> ServerResponse.ok()
					.body((response, context) -> response.writeWith(Flux.from(lateBody(response.bufferFactory())))));
		}

	}

}
