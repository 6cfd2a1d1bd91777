package dev.junction.netty;

import java.io.IOException;
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

/**
 * Connects a burst of clients while a server's listening channel's event loop is busy,
 * and records how many connections the channel accepted at each of its reads: one read of
 * the whole burst when the backlog is accepted at once, one read per connection when it
 * is accepted one a turn. Used by the tests of every server that accepts its backlog with
 * {@link AcceptBacklog}.
 */
public final class AcceptBursts implements AutoCloseable {

	private static final Duration WAIT = Duration.ofSeconds(10);

	private final List<Integer> batches;

	private final List<Socket> sockets;

	private AcceptBursts(List<Integer> batches, List<Socket> sockets) {
		this.batches = batches;
		this.sockets = sockets;
	}

	/**
	 * Holds the listening channel's event loop for a second, connects {@code connections}
	 * clients to {@code port} meanwhile, and waits until the channel has accepted them
	 * all (or ten seconds have passed).
	 */
	public static AcceptBursts connectWhileBusy(Channel listening, int port, int connections) throws Exception {
		BatchCounter counter = new BatchCounter();
		listening.pipeline().addFirst(counter);
		CountDownLatch busy = new CountDownLatch(1);
		listening.eventLoop().execute(() -> {
			busy.countDown();
			long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
			while (System.nanoTime() < until) {
				Thread.onSpinWait();
			}
		});
		if (!busy.await(WAIT.toSeconds(), TimeUnit.SECONDS)) {
			throw new IllegalStateException("the listening channel's event loop did not run the busy task");
		}
		List<Socket> sockets = new ArrayList<>();
		try {
			for (int i = 0; i < connections; i++) {
				Socket socket = new Socket("127.0.0.1", port);
				socket.setSoTimeout((int) WAIT.toMillis());
				sockets.add(socket);
			}
			long deadline = System.nanoTime() + WAIT.toNanos();
			while (counter.accepted() < connections && System.nanoTime() < deadline) {
				Thread.sleep(10);
			}
			return new AcceptBursts(List.copyOf(counter.batches), sockets);
		}
		catch (Exception ex) {
			closeAll(sockets);
			throw ex;
		}
		finally {
			listening.pipeline().remove(counter);
		}
	}

	/** The connections accepted at each read of the listening channel, in order. */
	public List<Integer> batches() {
		return this.batches;
	}

	/**
	 * Sends a GET of {@code path} on every connection of the burst, in turn, and returns
	 * each answer's status line.
	 */
	public List<String> statusLines(String path) throws IOException {
		List<String> lines = new ArrayList<>();
		for (Socket socket : this.sockets) {
			RawHttp.send(socket, "GET " + path + " HTTP/1.1\r\nHost: localhost\r\n\r\n");
			lines.add(RawHttp.readResponse(socket).lines().findFirst().orElse(""));
		}
		return lines;
	}

	@Override
	public void close() throws IOException {
		closeAll(this.sockets);
	}

	private static void closeAll(List<Socket> sockets) throws IOException {
		for (Socket socket : sockets) {
			socket.close();
		}
	}

	/**
	 * One {@code channelRead} per accepted connection, one {@code channelReadComplete}
	 * per read.
	 */
	private static final class BatchCounter extends ChannelInboundHandlerAdapter {

		private final Queue<Integer> batches = new ConcurrentLinkedQueue<>();

		private int batch;

		@Override
		public void channelRead(ChannelHandlerContext context, Object message) {
			this.batch++;
			context.fireChannelRead(message);
		}

		@Override
		public void channelReadComplete(ChannelHandlerContext context) {
			if (this.batch > 0) {
				this.batches.add(this.batch);
				this.batch = 0;
			}
			context.fireChannelReadComplete();
		}

		int accepted() {
			return this.batches.stream().mapToInt(Integer::intValue).sum();
		}

	}

}
