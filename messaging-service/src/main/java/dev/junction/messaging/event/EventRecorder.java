package dev.junction.messaging.event;

import java.time.Clock;
import java.util.List;
import java.util.UUID;

import dev.junction.database.Notifications;
import dev.junction.messaging.common.Ids;
import dev.junction.messaging.common.Timestamps;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.stereotype.Component;
import org.springframework.transaction.NoTransactionException;
import org.springframework.transaction.reactive.TransactionSynchronization;
import org.springframework.transaction.reactive.TransactionSynchronizationManager;
import org.springframework.transaction.reactive.TransactionalOperator;

/**
 * Writes an event row in the caller's transaction (an outbox: the event commits with the
 * change it describes, or not at all), with what each {@link EventOutbox} makes of it,
 * and hands the event to live consumers only once that transaction has committed. On
 * PostgreSQL the commit also notifies every instance, whose {@link EventFeed} reads the
 * event back for its streams.
 */
@Component
public class EventRecorder {

	private final EventRepository repository;

	private final EventBus bus;

	private final JsonMapper jsonMapper;

	private final Clock clock;

	private final TransactionalOperator transaction;

	private final boolean shared;

	private final List<EventOutbox> outboxes;

	public EventRecorder(EventRepository repository, EventBus bus, JsonMapper jsonMapper, Clock clock,
			TransactionalOperator transaction, Notifications notifications, List<EventOutbox> outboxes) {
		this.repository = repository;
		this.outboxes = outboxes;
		this.bus = bus;
		this.jsonMapper = jsonMapper;
		this.clock = clock;
		this.transaction = transaction;
		this.shared = notifications.shared();
	}

	/**
	 * Records that {@code type} happened to {@code subjectId}, whose new state is
	 * {@code payload}.
	 */
	public Mono<Event> record(String type, UUID instanceId, UUID subjectId, Object payload) {
		Mono<Event> event = Mono.fromSupplier(() -> new Event(Ids.next(), type, instanceId, subjectId,
				this.jsonMapper.writeValueAsString(payload), Timestamps.now(this.clock)));
		if (this.shared) {
			// Joins the caller's transaction; the event is made once its turn (until the
			// commit) has come.
			return this.repository.takeTurn()
				.then(event)
				.flatMap(this.repository::insertShared)
				.flatMap(this::outbox)
				.flatMap(this::publishAfterCommit)
				.as(this.transaction::transactional);
		}
		return event.flatMap(this.repository::insert)
			.flatMap(this::outbox)
			.flatMap(this::publishAfterCommit)
			.as(this.transaction::transactional);
	}

	private Mono<Event> outbox(Event event) {
		return Flux.fromIterable(this.outboxes).concatMap((outbox) -> outbox.recorded(event)).then(Mono.just(event));
	}

	private Mono<Event> publishAfterCommit(Event event) {
		return TransactionSynchronizationManager.forCurrentTransaction().map((manager) -> {
			if (manager.isSynchronizationActive()) {
				manager.registerSynchronization(new TransactionSynchronization() {
					@Override
					public Mono<Void> afterCommit() {
						return Mono.fromRunnable(() -> publish(event));
					}
				});
			}
			else {
				publish(event);
			}
			return event;
		}).onErrorResume(NoTransactionException.class, (ex) -> {
			publish(event);
			return Mono.just(event);
		});
	}

	private void publish(Event event) {
		this.bus.publishCommittedHere(event);
		if (!this.shared) {
			this.bus.publish(event);
		}
	}

}
