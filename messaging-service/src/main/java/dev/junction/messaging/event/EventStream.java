package dev.junction.messaging.event;

import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;

import dev.junction.messaging.apikey.ApiKeyService;
import dev.junction.messaging.apikey.Caller;
import dev.junction.messaging.common.MessagingProperties;
import dev.junction.messaging.event.EventRepository.EventFilter;
import dev.junction.messaging.web.ApiException;
import dev.junction.messaging.web.Cursor;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

import org.springframework.http.codec.ServerSentEvent;
import org.springframework.stereotype.Component;

/**
 * Server-sent event streams: events after {@code Last-Event-ID} replayed from the
 * database, then live events from the bus, in order and without duplicates. The live
 * subscription opens before the replay query, so nothing committed in between is lost.
 * Without {@code Last-Event-ID} a stream carries the events committed after it opened.
 */
@Component
public class EventStream {

	/** Events read per replay query. */
	static final int REPLAY_BATCH = 500;

	/**
	 * Live events a slow client may fall behind before its stream ends (it resumes with
	 * Last-Event-ID).
	 */
	static final int LIVE_BUFFER = 10_000;

	/** Start of the last comment of a stream the service ends. */
	static final String CLOSED = "closed: ";

	private final EventRepository repository;

	private final EventBus bus;

	private final ApiKeyService apiKeys;

	private final Duration heartbeat;

	public EventStream(EventRepository repository, EventBus bus, ApiKeyService apiKeys,
			MessagingProperties properties) {
		this.repository = repository;
		this.bus = bus;
		this.apiKeys = apiKeys;
		this.heartbeat = properties.sseHeartbeat();
	}

	/**
	 * The stream for {@code caller}, resuming after {@code lastEventId} when given. An
	 * unknown {@code lastEventId} fails before anything is sent, so the client gets a
	 * 400. The stream ends, with a last comment saying why, as soon as the caller's key
	 * is revoked or expires.
	 */
	public Flux<ServerSentEvent<Event>> open(Caller caller, EventFilter filter, UUID lastEventId) {
		if (filter.instanceId() != null) {
			caller.requireInstance(filter.instanceId());
		}
		Mono<Cursor> from = (lastEventId != null) ? start(lastEventId) : newest();
		return from.flatMapMany((position) -> {
			Flux<ServerSentEvent<Event>> heartbeats = Flux.interval(this.heartbeat)
				.map((tick) -> comment("keep-alive"));
			Mono<ServerSentEvent<Event>> closing = this.apiKeys.whenInvalid(caller)
				.map((reason) -> comment(CLOSED + reason));
			// The opening comment sends the response headers at once, before any event
			// exists.
			return Flux.concat(Mono.just(comment("connected")),
					Flux.merge(events(caller, filter, position), heartbeats, closing)
						.takeUntil(EventStream::isClosing));
		});
	}

	private Flux<ServerSentEvent<Event>> events(Caller caller, EventFilter filter, Cursor from) {
		return Flux.defer(() -> {
			// The replay query waits until the live subscription is in place;
			// mergeSequential emits every replayed event first while it buffers live
			// ones, and an event seen in both is dropped by position.
			Sinks.Empty<Void> liveSubscribed = Sinks.empty();
			Flux<Event> live = this.bus.events()
				.filter(filter::matches)
				.filter((event) -> (event.instanceId() != null) ? caller.canAccess(event.instanceId())
						: !caller.restricted())
				.onBackpressureBuffer(LIVE_BUFFER)
				.doOnSubscribe((subscription) -> liveSubscribed.tryEmitEmpty());
			Flux<Event> replay = liveSubscribed.asMono()
				.thenMany(Flux.concat(Mono.just(marker(from)), replayAfter(caller, filter, from)));
			AtomicReference<Cursor> last = new AtomicReference<>();
			return Flux.mergeSequential(replay, live).filter((event) -> {
				Cursor previous = last.get();
				if (previous != null && !event.isAfter(previous)) {
					return false;
				}
				last.set(event.position());
				return event.type() != null;
			}).map(EventStream::toSse);
		});
	}

	private Mono<Cursor> start(UUID lastEventId) {
		return this.repository.findById(lastEventId)
			.map(Event::position)
			.switchIfEmpty(Mono.error(() -> ApiException.invalid("Last-Event-ID", "unknown event " + lastEventId)));
	}

	/**
	 * Where a stream without {@code Last-Event-ID} starts: after the newest event
	 * committed before it opened. Read before the stream says it is connected, so an
	 * event committed once the client has seen that is always carried, and a late
	 * notification of an older one never is.
	 */
	private Mono<Cursor> newest() {
		return this.repository.lastPosition().defaultIfEmpty(new Cursor(Instant.EPOCH, new UUID(0, 0)));
	}

	private Flux<Event> replayAfter(Caller caller, EventFilter filter, Cursor from) {
		return this.repository.after(caller, filter, from, REPLAY_BATCH).collectList().flatMapMany((batch) -> {
			if (batch.size() < REPLAY_BATCH) {
				return Flux.fromIterable(batch);
			}
			Cursor next = batch.get(batch.size() - 1).position();
			return Flux.fromIterable(batch).concatWith(Flux.defer(() -> replayAfter(caller, filter, next)));
		});
	}

	/** A position-only event: it sets where the stream resumes and is never sent. */
	private static Event marker(Cursor from) {
		return new Event(from.id(), null, null, null, null, from.createdAt());
	}

	private static boolean isClosing(ServerSentEvent<Event> event) {
		return event.comment() != null && event.comment().startsWith(CLOSED);
	}

	private static ServerSentEvent<Event> comment(String text) {
		return ServerSentEvent.<Event>builder().comment(text).build();
	}

	private static ServerSentEvent<Event> toSse(Event event) {
		return ServerSentEvent.builder(event).id(event.id().toString()).event(event.type()).build();
	}

}
