package dev.junction.messaging.event;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Sinks;

import org.springframework.stereotype.Component;

/**
 * In-process fan-out of committed events to live consumers (event streams, webhook
 * dispatch). Consumers that fall behind buffer on their own side; the database stays the
 * record, so a consumer that loses events resumes from there.
 */
@Component
public class EventBus {

	private static final Logger logger = LoggerFactory.getLogger(EventBus.class);

	private final Sinks.Many<Event> sink = Sinks.many().multicast().directBestEffort();

	/** Hands {@code event} to every current subscriber. */
	public void publish(Event event) {
		Sinks.EmitResult result;
		synchronized (this.sink) {
			result = this.sink.tryEmitNext(event);
		}
		if (result.isFailure() && result != Sinks.EmitResult.FAIL_ZERO_SUBSCRIBER) {
			logger.warn("Event {} not published to live consumers: {}", event.id(), result);
		}
	}

	/** Live events from now on. */
	public Flux<Event> events() {
		return this.sink.asFlux();
	}

}
