package dev.junction.gateway.messages;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import dev.junction.gateway.provider.ChatChunk;
import dev.junction.gateway.provider.ClientApi;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Sinks;

/**
 * Anthropic {@code ping} events on a Messages stream, so that it is never silent for a
 * whole interval: the stream is checked every half interval, and gets a ping when nothing
 * has gone out for that long. A stream whose first event is slow to come starts with
 * pings, so its response begins before the upstream answers.
 */
final class StreamPings {

	/** The ping, as Anthropic sends it. */
	static final ChatChunk PING = new ChatChunk("{\"type\":\"ping\"}", null, false, ClientApi.ANTHROPIC_MESSAGES,
			"ping");

	private StreamPings() {
	}

	static Flux<ChatChunk> around(Flux<ChatChunk> chunks, Duration interval) {
		if (interval.isZero()) {
			return chunks;
		}
		Duration check = interval.dividedBy(2);
		return Flux.defer(() -> {
			AtomicLong last = new AtomicLong(System.nanoTime());
			Sinks.Empty<Void> done = Sinks.empty();
			Flux<ChatChunk> pings = Flux.interval(check, check)
				.filter((tick) -> System.nanoTime() - last.get() >= check.toNanos())
				.map((tick) -> PING)
				.takeUntilOther(done.asMono());
			return Flux.merge(chunks.doFinally((signal) -> done.tryEmitEmpty()), pings)
				.doOnNext((chunk) -> last.set(System.nanoTime()));
		});
	}

}
