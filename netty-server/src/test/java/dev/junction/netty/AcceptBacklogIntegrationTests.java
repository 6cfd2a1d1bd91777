package dev.junction.netty;

import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.reactor.netty.NettyServerCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.ServerResponse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.web.reactive.function.server.RequestPredicates.GET;
import static org.springframework.web.reactive.function.server.RouterFunctions.route;

/**
 * Connections that arrive while the listening socket's event loop is busy are all
 * accepted at its next turn, not one a turn: a burst of new connections does not wait in
 * the backlog while the loop serves the connections it has.
 */
class AcceptBacklogIntegrationTests {

	private static final int CONNECTIONS = 50;

	/** How many connections the listening channel accepted at each of its reads. */
	private static final Queue<Integer> BATCHES = new ConcurrentLinkedQueue<>();

	private static volatile Channel listening;

	@RegisterExtension
	static final RunningServer server = new RunningServer(Application.class);

	@Test
	void acceptsTheConnectionsThatArrivedWhileTheLoopWasBusyAtOnce() throws Exception {
		CountDownLatch busy = new CountDownLatch(1);
		listening.eventLoop().execute(() -> {
			busy.countDown();
			// Keeps the loop from accepting while the connections arrive.
			long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
			while (System.nanoTime() < until) {
				Thread.onSpinWait();
			}
		});
		assertThat(busy.await(5, TimeUnit.SECONDS)).isTrue();
		BATCHES.clear();
		List<Socket> sockets = new ArrayList<>();
		try {
			for (int i = 0; i < CONNECTIONS; i++) {
				Socket socket = new Socket("127.0.0.1", server.port());
				socket.setSoTimeout((int) Duration.ofSeconds(10).toMillis());
				sockets.add(socket);
			}
			long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
			while (accepted() < CONNECTIONS && System.nanoTime() < deadline) {
				Thread.sleep(10);
			}
			assertThat(BATCHES).containsExactly(CONNECTIONS);
			for (Socket socket : sockets) {
				RawHttp.send(socket, "GET /hello HTTP/1.1\r\nHost: localhost\r\n\r\n");
				assertThat(RawHttp.readResponse(socket)).startsWith("HTTP/1.1 200 ");
			}
		}
		finally {
			for (Socket socket : sockets) {
				socket.close();
			}
		}
	}

	private static int accepted() {
		return BATCHES.stream().mapToInt(Integer::intValue).sum();
	}

	/**
	 * Counts the connections the listening channel hands on at each read: one
	 * {@code channelRead} per connection, one {@code channelReadComplete} per read.
	 */
	static final class BatchCounter extends ChannelInboundHandlerAdapter {

		private int batch;

		@Override
		public void channelRead(ChannelHandlerContext context, Object message) {
			this.batch++;
			context.fireChannelRead(message);
		}

		@Override
		public void channelReadComplete(ChannelHandlerContext context) {
			if (this.batch > 0) {
				BATCHES.add(this.batch);
				this.batch = 0;
			}
			context.fireChannelReadComplete();
		}

	}

	@SpringBootConfiguration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	@Import(NettyServerConfiguration.class)
	static class Application {

		@Bean
		NettyServerCustomizer countingAccepts() {
			return (server) -> server.doOnBound((bound) -> {
				listening = bound.channel();
				bound.channel().pipeline().addFirst(new BatchCounter());
			});
		}

		@Bean
		RouterFunction<ServerResponse> routes() {
			return route(GET("/hello"), (request) -> ServerResponse.ok().bodyValue("hello"));
		}

	}

}
