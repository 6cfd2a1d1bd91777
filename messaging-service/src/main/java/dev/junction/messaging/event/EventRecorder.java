package dev.junction.messaging.event;

import java.time.Clock;
import java.util.UUID;

import dev.junction.messaging.common.Ids;
import dev.junction.messaging.common.Timestamps;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.stereotype.Component;
import org.springframework.transaction.NoTransactionException;
import org.springframework.transaction.reactive.TransactionSynchronization;
import org.springframework.transaction.reactive.TransactionSynchronizationManager;

/**
 * Writes an event row in the caller's transaction and hands the event to live consumers
 * only once that transaction has committed.
 */
@Component
public class EventRecorder {

	private final EventRepository repository;

	private final EventBus bus;

	private final JsonMapper jsonMapper;

	private final Clock clock;

	public EventRecorder(EventRepository repository, EventBus bus, JsonMapper jsonMapper, Clock clock) {
		this.repository = repository;
		this.bus = bus;
		this.jsonMapper = jsonMapper;
		this.clock = clock;
	}

	/** Records that {@code type} happened to {@code subjectId}, whose new state is {@code payload}. */
	public Mono<Event> record(String type, UUID instanceId, UUID subjectId, Object payload) {
		return Mono.defer(() -> {
			Event event = new Event(Ids.next(), type, instanceId, subjectId, this.jsonMapper.writeValueAsString(payload),
					Timestamps.now(this.clock));
			return this.repository.insert(event).flatMap(this::publishAfterCommit);
		});
	}

	private Mono<Event> publishAfterCommit(Event event) {
		return TransactionSynchronizationManager.forCurrentTransaction().map((manager) -> {
			if (manager.isSynchronizationActive()) {
				manager.registerSynchronization(new TransactionSynchronization() {
					@Override
					public Mono<Void> afterCommit() {
						return Mono.fromRunnable(() -> EventRecorder.this.bus.publish(event));
					}
				});
			}
			else {
				this.bus.publish(event);
			}
			return event;
		}).onErrorResume(NoTransactionException.class, (ex) -> {
			this.bus.publish(event);
			return Mono.just(event);
		});
	}

}
