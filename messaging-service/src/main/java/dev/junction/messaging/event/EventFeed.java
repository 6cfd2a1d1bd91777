package dev.junction.messaging.event;

import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;

import dev.junction.messaging.db.Notifications;
import dev.junction.messaging.web.Cursor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * On PostgreSQL, feeds the {@link EventBus} with the events every instance commits: each
 * notification on {@link EventRepository#CHANNEL} (an event id) makes it read the events
 * after the last position it published, in order, from the table. After a lost listening
 * connection it resumes the same way, from the last event it saw, so no event is skipped
 * and none published twice. Nothing to do on H2, where the recorder publishes directly.
 */
@Component
public class EventFeed implements SmartLifecycle {

	private static final Logger logger = LoggerFactory.getLogger(EventFeed.class);

	/** Events read per query. */
	static final int BATCH = 500;

	private final Notifications notifications;

	private final EventRepository repository;

	private final EventBus bus;

	private final AtomicReference<Cursor> last = new AtomicReference<>();

	private volatile Disposable subscription;

	public EventFeed(Notifications notifications, EventRepository repository, EventBus bus) {
		this.notifications = notifications;
		this.repository = repository;
		this.bus = bus;
	}

	@Override
	public void start() {
		if (!this.notifications.shared()) {
			return;
		}
		// The events committed before this start are history: streams replay them on request.
		this.subscription = this.repository.lastPosition()
			.defaultIfEmpty(new Cursor(Instant.EPOCH, new UUID(0, 0)))
			.doOnNext(this.last::set)
			.thenMany(this.notifications.listen(EventRepository.CHANNEL))
			.filter(this::mayBeNew)
			.onBackpressureLatest()
			.concatMap((signal) -> catchUp().onErrorResume((ex) -> {
				logger.warn("Events not read after a notification: {}", ex.toString());
				return Mono.empty();
			}), 1)
			.subscribe(null, (ex) -> logger.error("Event feed stopped", ex));
	}

	@Override
	public void stop() {
		Disposable current = this.subscription;
		if (current != null) {
			current.dispose();
		}
		this.subscription = null;
	}

	@Override
	public boolean isRunning() {
		return this.subscription != null;
	}

	/** Starts before the web server, so a stream never opens on an instance not yet listening. */
	@Override
	public int getPhase() {
		return SmartLifecycle.DEFAULT_PHASE - 2048;
	}

	/** Whether {@code signal} may announce an event not yet published (not the one published last). */
	private boolean mayBeNew(String signal) {
		Cursor position = this.last.get();
		return position == null || !signal.equals(position.id().toString());
	}

	/** Publishes every event after the last one published, batch by batch. */
	private Mono<Void> catchUp() {
		return Mono.defer(() -> this.repository.after(this.last.get(), BATCH)
			.doOnNext((event) -> {
				this.last.set(event.position());
				this.bus.publish(event);
			})
			.count()
			.flatMap((read) -> (read == BATCH) ? catchUp() : Mono.empty()));
	}

}
