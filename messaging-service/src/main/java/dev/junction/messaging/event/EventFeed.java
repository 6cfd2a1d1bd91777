package dev.junction.messaging.event;

import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;

import dev.junction.database.ChannelListener;
import dev.junction.database.Notifications;
import dev.junction.messaging.web.Cursor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.util.retry.Retry;

import org.springframework.stereotype.Component;

/**
 * On PostgreSQL, feeds the {@link EventBus} with the events every instance commits: each
 * notification on {@link EventRepository#CHANNEL} (an event id) makes it read the events
 * after the last position it published, in order, from the table. After a lost listening
 * connection it resumes the same way, from the last event it saw, so no event is skipped
 * and none published twice. Nothing to do on H2, where the recorder publishes directly.
 */
@Component
public class EventFeed extends ChannelListener {

	private static final Logger logger = LoggerFactory.getLogger(EventFeed.class);

	/** Events read per query. */
	static final int BATCH = 500;

	private final EventRepository repository;

	private final EventBus bus;

	private final AtomicReference<Cursor> last = new AtomicReference<>();

	public EventFeed(Notifications notifications, EventRepository repository, EventBus bus) {
		super(notifications, EventRepository.CHANNEL);
		this.repository = repository;
		this.bus = bus;
	}

	@Override
	protected Flux<Void> handle(Flux<String> signals) {
		// The events committed before this start are history: streams replay them on
		// request.
		return this.repository.lastPosition()
			.defaultIfEmpty(new Cursor(Instant.EPOCH, new UUID(0, 0)))
			.retryWhen(Retry.backoff(Long.MAX_VALUE, Duration.ofMillis(100)).maxBackoff(Duration.ofSeconds(5)))
			.doOnNext(this.last::set)
			.thenMany(signals)
			.filter(this::mayBeNew)
			.onBackpressureLatest()
			.concatMap((signal) -> catchUp().onErrorResume((ex) -> {
				logger.warn("Events not read after a notification: {}", ex.toString());
				return Mono.empty();
			}), 1);
	}

	/**
	 * Whether {@code signal} may announce an event not yet published (not the one
	 * published last).
	 */
	private boolean mayBeNew(String signal) {
		Cursor position = this.last.get();
		return position == null || !signal.equals(position.id().toString());
	}

	/** Publishes every event after the last one published, batch by batch. */
	private Mono<Void> catchUp() {
		return Mono.defer(() -> this.repository.after(this.last.get(), BATCH).doOnNext((event) -> {
			this.last.set(event.position());
			this.bus.publish(event);
		}).count().flatMap((read) -> (read == BATCH) ? catchUp() : Mono.empty()));
	}

}
