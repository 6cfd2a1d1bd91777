package dev.junction.messaging.support;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * A Server-Sent Events client on the JDK's HTTP client, reading the stream line by line
 * on a thread of its own, as a browser's {@code EventSource} would, without reconnecting.
 */
public final class SseClient implements AutoCloseable {

	private static final String END = "\u0000end";

	private final HttpResponse<Stream<String>> response;

	private final BlockingQueue<String> pending = new LinkedBlockingQueue<>();

	private final List<String> lines = new CopyOnWriteArrayList<>();

	private final Thread reader;

	private volatile boolean ended;

	private SseClient(HttpResponse<Stream<String>> response) {
		this.response = response;
		this.reader = new Thread(() -> {
			try (Stream<String> body = response.body()) {
				body.forEach(this.pending::add);
			}
			catch (RuntimeException ex) {
				// the connection broke: an end, for the reader
			}
			this.pending.add(END);
		}, "sse-client");
		this.reader.setDaemon(true);
		this.reader.start();
	}

	/**
	 * Opens {@code path} (under {@code /api/v2}) on the server at {@code port} with
	 * {@code apiKey}.
	 */
	public static SseClient open(int port, String path, String apiKey) throws IOException, InterruptedException {
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/api/v2" + path))
			.header("x-api-key", apiKey)
			.header("Accept", "text/event-stream")
			.build();
		return new SseClient(HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofLines()));
	}

	public int status() {
		return this.response.statusCode();
	}

	/**
	 * Waits up to {@code timeout} for a line matching {@code wanted}; false if none came.
	 */
	public boolean awaitLine(Predicate<String> wanted, Duration timeout) throws InterruptedException {
		long deadline = System.nanoTime() + timeout.toNanos();
		while (!this.ended) {
			String line = this.pending.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
			if (line == null) {
				return false;
			}
			if (line.equals(END)) {
				this.ended = true;
				return false;
			}
			this.lines.add(line);
			if (wanted.test(line)) {
				return true;
			}
		}
		return false;
	}

	/**
	 * Waits up to {@code timeout} for the server to end the stream; false if it is still
	 * open.
	 */
	public boolean awaitEnd(Duration timeout) throws InterruptedException {
		awaitLine((line) -> false, timeout);
		return this.ended;
	}

	/** Every line read so far. */
	public List<String> lines() {
		return this.lines;
	}

	@Override
	public void close() {
		this.reader.interrupt();
		this.response.body().close();
	}

}
