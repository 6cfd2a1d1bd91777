package dev.junction.mock.pipeline;

import java.time.Duration;

import dev.junction.mock.behavior.Behavior;
import dev.junction.mock.behavior.MockHeaders;
import dev.junction.mock.stats.Outcome;
import dev.junction.mock.stats.RequestTracker;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.reactive.function.BodyInserter;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;

/**
 * One request in flight: how to misbehave, how it is counted, and the ways to answer it.
 */
public final class MockCall {

	private static final MediaType EVENT_STREAM = MediaType.parseMediaType("text/event-stream; charset=utf-8");

	private final ServerRequest request;

	private final Behavior behavior;

	private final RequestTracker tracker;

	private final String keySuffix;

	private final ErrorFormat errorFormat;

	MockCall(ServerRequest request, Behavior behavior, RequestTracker tracker, String keySuffix,
			ErrorFormat errorFormat) {
		this.request = request;
		this.behavior = behavior;
		this.tracker = tracker;
		this.keySuffix = keySuffix;
		this.errorFormat = errorFormat;
	}

	/** The request. */
	public ServerRequest request() {
		return request;
	}

	/** How to answer it, or null when its {@code x-mock-*} headers were invalid. */
	public Behavior behavior() {
		return behavior;
	}

	/** A complete JSON answer with status 200. */
	public Mono<ServerResponse> json(byte[] body) {
		tracker.finish(Outcome.OK);
		return write(ServerResponse.ok(), body);
	}

	/** An error in the route's provider shape, with Retry-After on 429, 503 and 529. */
	public Mono<ServerResponse> error(MockError error) {
		tracker.finish(Outcome.ERROR);
		ServerResponse.BodyBuilder response = ServerResponse.status(error.status());
		long retryAfter = (behavior != null) ? behavior.retryAfterSeconds() : 0;
		int status = error.status();
		if (retryAfter > 0 && (status == 429 || status == 503 || status == 529)) {
			response.header(HttpHeaders.RETRY_AFTER, Long.toString(retryAfter));
		}
		return write(response, errorFormat.body(error));
	}

	/**
	 * A streamed answer: its events flushed one by one, {@code chunk-delay-ms} apart, or
	 * cut off after {@code truncate-after} events by closing the connection.
	 */
	public Mono<ServerResponse> stream(SseStream stream) {
		int size = stream.size();
		boolean truncating = behavior.truncating();
		int sent = truncating ? Math.min(behavior.truncateAfter(), size - 1) : size;
		long delay = behavior.chunkDelayMs();
		Flux<byte[]> events = (delay > 0)
				? Flux.range(0, sent)
					.concatMap((index) -> (index == 0) ? Mono.just(stream.event(index))
							: Mono.delay(Duration.ofMillis(delay)).map((tick) -> stream.event(index)))
				: Flux.range(0, sent).map(stream::event);
		BodyInserter<Flux<byte[]>, ServerHttpResponse> inserter = (response, context) -> {
			Flux<Publisher<DataBuffer>> groups = events.map((event) -> Mono.just(response.bufferFactory().wrap(event)));
			groups = truncating ? groups.concatWith(Flux.defer(() -> truncate(sent)))
					: groups.doOnComplete(() -> tracker.finish(Outcome.OK));
			return response.writeAndFlushWith(groups.doOnSubscribe((subscription) -> tracker.streamStarted())
				.doOnCancel(() -> tracker.finish(Outcome.CANCELLED))
				.doFinally((signal) -> tracker.streamEnded()));
		};
		return headers(ServerResponse.ok()).contentType(EVENT_STREAM)
			.header(HttpHeaders.CACHE_CONTROL, "no-cache")
			.body(inserter);
	}

	/**
	 * Cuts the stream: the connection is closed once the events already sent are flushed,
	 * and the body never completes (the close cancels it). Without Reactor Netty
	 * underneath, an error ends the body instead.
	 */
	private Flux<Publisher<DataBuffer>> truncate(int sent) {
		tracker.finish(Outcome.TRUNCATED);
		if (ConnectionControl.closeAfterWrites(request)) {
			return Flux.never();
		}
		return Flux.error(new StreamTruncatedException(sent));
	}

	/** Resets the connection instead of answering. */
	Mono<ServerResponse> reset() {
		tracker.finish(Outcome.RESET);
		if (!ConnectionControl.reset(request)) {
			throw new IllegalStateException("x-mock-reset needs the Reactor Netty server");
		}
		return Mono.never();
	}

	RequestTracker tracker() {
		return tracker;
	}

	private Mono<ServerResponse> write(ServerResponse.BodyBuilder response, byte[] body) {
		BodyInserter<byte[], ServerHttpResponse> inserter = (message, context) -> message
			.writeWith(Mono.just(message.bufferFactory().wrap(body)));
		return headers(response).contentType(MediaType.APPLICATION_JSON).contentLength(body.length).body(inserter);
	}

	private ServerResponse.BodyBuilder headers(ServerResponse.BodyBuilder response) {
		if (keySuffix != null) {
			response.header(MockHeaders.KEY_SUFFIX, keySuffix);
		}
		return response;
	}

}
