package dev.junction.messaging.event;

import reactor.core.publisher.Mono;

/**
 * Work that commits with an event or not at all: called in the transaction that records
 * the event (webhook deliveries are created so).
 */
public interface EventOutbox {

	/** Records what {@code event} calls for, in the current transaction. */
	Mono<Void> recorded(Event event);

}
