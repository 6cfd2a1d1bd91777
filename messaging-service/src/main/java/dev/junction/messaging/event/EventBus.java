package dev.junction.messaging.event;

import dev.junction.messaging.common.SerializedEmitter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Sinks;

import org.springframework.stereotype.Component;

/**
 * In-process fan-out of committed events to live consumers: every event of the service to
 * event streams ({@link #events()}), and the events committed through this instance
 * ({@link #committedHere()}: webhook dispatch then looks for their deliveries at once).
 * On PostgreSQL the former comes from {@link EventFeed}, which hears every instance's
 * commits. Consumers that fall behind buffer on their own side; the database stays the
 * record, so a consumer that loses events resumes from there.
 */
@Component
public class EventBus {

	private static final Logger logger = LoggerFactory.getLogger(EventBus.class);

	private final SerializedEmitter<Event> sink = emitter();

	private final SerializedEmitter<Event> local = emitter();

	/** Hands {@code event} to every current stream; never waits for another publisher. */
	public void publish(Event event) {
		this.sink.emit(event);
	}

	/** Live events from now on. */
	public Flux<Event> events() {
		return this.sink.asFlux();
	}

	/**
	 * Hands {@code event}, just committed through this instance, to its local consumers.
	 */
	void publishCommittedHere(Event event) {
		this.local.emit(event);
	}

	/** Live events committed through this instance from now on. */
	public Flux<Event> committedHere() {
		return this.local.asFlux();
	}

	private static SerializedEmitter<Event> emitter() {
		return new SerializedEmitter<>(Sinks.many().multicast().directBestEffort(), (event, result) -> {
			if (result != Sinks.EmitResult.FAIL_ZERO_SUBSCRIBER) {
				logger.warn("Event {} not published to live consumers: {}", event.id(), result);
			}
		});
	}

}
