package dev.junction.gateway.provider;

import java.time.Duration;
import java.util.function.Predicate;
import java.util.function.Supplier;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

/**
 * The end of a provider's event stream. Each streaming API has a last event
 * ({@code [DONE]}, {@code message_stop}, {@code response.completed}) right after which
 * the provider ends its body. Stopping the read at that event would leave the body
 * unfinished, and Reactor Netty closes a connection whose response was not read to its
 * end: every stream would then open a connection of its own, with its own TLS handshake.
 * So the body is read on to its end and anything after the last event is dropped. A
 * provider that has not ended its body {@link #GRACE} after the last event, or that fails
 * after it, ends the stream as complete (the answer was whole), and only then is its
 * connection closed.
 */
public final class StreamEnd {

	/** How long the end of the body may follow the last event. */
	public static final Duration GRACE = Duration.ofSeconds(1);

	private StreamEnd() {
	}

	/**
	 * {@code events} up to the first one that {@code last} accepts (passed on when
	 * {@code inclusive}), read on to the end of the body; a body that ends before that
	 * event fails with {@code endedEarly}.
	 */
	public static <T> Flux<T> upTo(Flux<T> events, Predicate<? super T> last, boolean inclusive,
			Supplier<? extends Throwable> endedEarly) {
		return Flux.defer(() -> {
			Sinks.Empty<Void> seen = Sinks.empty();
			boolean[] done = { false };
			return events.filter((event) -> {
				if (done[0]) {
					return false;
				}
				if (last.test(event)) {
					done[0] = true;
					seen.tryEmitEmpty();
					return inclusive;
				}
				return true;
			})
				.takeUntilOther(seen.asMono().then(Mono.delay(GRACE)))
				.onErrorResume((error) -> (done[0]) ? Mono.empty() : Mono.error(error))
				.concatWith(Mono.defer(() -> (done[0]) ? Mono.empty() : Mono.error(endedEarly)));
		});
	}

}
