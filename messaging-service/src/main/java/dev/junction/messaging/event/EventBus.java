package dev.junction.messaging.event;

import dev.junction.messaging.common.SerializedEmitter;
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

	private final SerializedEmitter<Event> sink = new SerializedEmitter<>(Sinks.many().multicast().directBestEffort(),
			(event, result) -> {
				if (result != Sinks.EmitResult.FAIL_ZERO_SUBSCRIBER) {
					logger.warn("Event {} not published to live consumers: {}", event.id(), result);
				}
			});

	/** Hands {@code event} to every current subscriber; never waits for another publisher. */
	public void publish(Event event) {
		this.sink.emit(event);
	}

	/** Live events from now on. */
	public Flux<Event> events() {
		return this.sink.asFlux();
	}

}
