package dev.junction.messaging.webhook;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import java.util.function.ToIntFunction;

import io.netty.handler.codec.http.HttpResponseStatus;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;

/**
 * A local webhook receiver on a random port: answers each request with the next status of
 * its script (then with the last one), or as its rule says, and keeps every request it
 * got.
 */
final class WebhookReceiver implements AutoCloseable {

	private final Queue<Integer> script = new ConcurrentLinkedQueue<>();

	private volatile int fallback = 200;

	private volatile @Nullable ToIntFunction<Map<String, String>> rule;

	private final List<Received> received = new CopyOnWriteArrayList<>();

	private volatile Function<Received, Mono<?>> beforeAnswer = (request) -> Mono.empty();

	private final DisposableServer server;

	WebhookReceiver() {
		this.server = HttpServer.create()
			.host("127.0.0.1")
			.port(0)
			.route((routes) -> routes.post("/hook",
					(request, response) -> request.receive()
						.aggregate()
						.asByteArray()
						.defaultIfEmpty(new byte[0])
						.flatMap((body) -> {
							Map<String, String> headers = new java.util.HashMap<>();
							request.requestHeaders()
								.forEach((entry) -> headers.put(entry.getKey().toLowerCase(), entry.getValue()));
							ToIntFunction<Map<String, String>> rule = this.rule;
							Integer next = (rule != null) ? Integer.valueOf(rule.applyAsInt(headers))
									: this.script.poll();
							int status = (next != null) ? next : this.fallback;
							Received got = new Received(headers, body, status);
							this.received.add(got);
							return this.beforeAnswer.apply(got)
								.then(response.status(HttpResponseStatus.valueOf(status)).send().then());
						})))
			.bindNow(Duration.ofSeconds(10));
	}

	/** Answers the next requests with {@code statuses}, then with the last of them. */
	WebhookReceiver answer(int... statuses) {
		for (int status : statuses) {
			this.script.add(status);
		}
		this.fallback = statuses[statuses.length - 1];
		return this;
	}

	/** Answers each request with the status {@code rule} gives for its headers. */
	WebhookReceiver answer(ToIntFunction<Map<String, String>> rule) {
		this.rule = rule;
		return this;
	}

	/**
	 * Runs {@code action} on each request before answering it (without blocking the
	 * receiver's thread).
	 */
	WebhookReceiver beforeAnswering(Function<Received, Mono<?>> action) {
		this.beforeAnswer = action;
		return this;
	}

	String url() {
		return "http://127.0.0.1:" + this.server.port() + "/hook";
	}

	List<Received> received() {
		return this.received;
	}

	@Override
	public void close() {
		this.server.disposeNow();
	}

	/** One request the receiver got, and the status it answered. */
	record Received(Map<String, String> headers, byte[] body, int status) {
	}

}
