package dev.junction.messaging.event;

import java.util.Arrays;
import java.util.List;
import java.util.UUID;

import dev.junction.messaging.apikey.Caller;
import dev.junction.messaging.common.Api;
import dev.junction.messaging.event.EventRepository.EventFilter;
import dev.junction.messaging.web.ApiException;
import dev.junction.messaging.web.Page;
import dev.junction.messaging.web.PageRequest;
import dev.junction.messaging.web.QueryParams;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.http.MediaType;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** {@code /events}: the change log, paged or streamed. */
@RestController
@RequestMapping(Api.BASE + "/events")
class EventController {

	private final EventRepository repository;

	private final EventStream stream;

	EventController(EventRepository repository, EventStream stream) {
		this.repository = repository;
		this.stream = stream;
	}

	@GetMapping
	Mono<Page<Event>> list(Caller caller, @RequestParam(required = false) UUID instanceId,
			@RequestParam(required = false) String type, @RequestParam(required = false) String since,
			@RequestParam(required = false) String until, @RequestParam(required = false) Integer limit,
			@RequestParam(required = false) String cursor) {
		PageRequest page = PageRequest.of(limit, cursor);
		EventFilter filter = new EventFilter(instanceId, types(type), QueryParams.instant("since", since),
				QueryParams.instant("until", until));
		return this.repository.page(caller, filter, page)
			.collectList()
			.map((rows) -> Page.of(rows, page, Event::position));
	}

	@GetMapping("/{id}")
	Mono<Event> get(Caller caller, @PathVariable UUID id) {
		return this.repository.findById(id)
			.filter((event) -> (event.instanceId() != null) ? caller.canAccess(event.instanceId())
					: !caller.restricted())
			.switchIfEmpty(Mono.error(() -> ApiException.notFound("Event", id)));
	}

	@GetMapping(path = "/stream", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
	Flux<ServerSentEvent<Event>> stream(Caller caller, @RequestParam(required = false) UUID instanceId,
			@RequestParam(required = false) String type,
			@RequestHeader(name = "Last-Event-ID", required = false) String lastEventIdHeader,
			@RequestParam(name = "lastEventId", required = false) String lastEventIdParam) {
		String lastEventId = (lastEventIdHeader != null) ? lastEventIdHeader : lastEventIdParam;
		EventFilter filter = new EventFilter(instanceId, types(type), null, null);
		return this.stream.open(caller, filter, parseId(lastEventId));
	}

	private static UUID parseId(String value) {
		if (value == null || value.isBlank()) {
			return null;
		}
		try {
			return UUID.fromString(value.trim());
		}
		catch (IllegalArgumentException ex) {
			throw ApiException.invalid("Last-Event-ID", "not an event id");
		}
	}

	/** Comma-separated event types. */
	static List<String> types(String value) {
		if (value == null || value.isBlank()) {
			return List.of();
		}
		return Arrays.stream(QueryParams.text("type", value).split(","))
			.map(String::trim)
			.filter((type) -> !type.isEmpty())
			.toList();
	}

}
