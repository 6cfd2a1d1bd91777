package dev.junction.messaging.instance;

import java.time.Clock;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

import dev.junction.messaging.apikey.Caller;
import dev.junction.messaging.common.Ids;
import dev.junction.messaging.common.Timestamps;
import dev.junction.messaging.event.EventRecorder;
import dev.junction.messaging.event.EventTypes;
import dev.junction.messaging.web.ApiException;
import dev.junction.messaging.web.Page;
import dev.junction.messaging.web.PageRequest;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.dao.DuplicateKeyException;
import org.springframework.stereotype.Service;
import org.springframework.transaction.reactive.TransactionalOperator;

/**
 * Creates, changes and deletes instances; every change is recorded as an event in the
 * same transaction.
 */
@Service
public class InstanceService {

	private final InstanceRepository repository;

	private final EventRecorder events;

	private final TransactionalOperator transaction;

	private final JsonMapper jsonMapper;

	private final Clock clock;

	public InstanceService(InstanceRepository repository, EventRecorder events, TransactionalOperator transaction,
			JsonMapper jsonMapper, Clock clock) {
		this.repository = repository;
		this.events = events;
		this.transaction = transaction;
		this.jsonMapper = jsonMapper;
		this.clock = clock;
	}

	public Mono<Instance> create(Caller caller, String name, Channel channel, Map<String, Object> settings) {
		caller.requireUnrestricted();
		Instant now = Timestamps.now(this.clock);
		Instance instance = new Instance(Ids.next(), name, channel, InstanceStatus.DISCONNECTED, json(settings), now,
				now);
		return this.repository.insert(instance)
			.flatMap((created) -> this.events.record(EventTypes.INSTANCE_CREATED, created.id(), created.id(), created)
				.thenReturn(created))
			.as(this.transaction::transactional)
			.onErrorMap(DuplicateKeyException.class, (ex) -> duplicateName(name));
	}

	public Mono<Instance> get(Caller caller, UUID id) {
		caller.requireInstance(id);
		return this.repository.findById(id).switchIfEmpty(Mono.error(() -> ApiException.notFound("Instance", id)));
	}

	public Mono<Page<Instance>> list(Caller caller, Channel channel, InstanceStatus status, PageRequest page) {
		return this.repository.page(caller, channel, status, page)
			.collectList()
			.map((rows) -> Page.of(rows, page, Instance::position));
	}

	/**
	 * Applies the non-null fields; a status change also emits {@code instance.<status>}.
	 */
	public Mono<Instance> update(Caller caller, UUID id, String name, InstanceStatus status,
			Map<String, Object> settings) {
		caller.requireInstance(id);
		return this.repository.findByIdForUpdate(id)
			.switchIfEmpty(Mono.error(() -> ApiException.notFound("Instance", id)))
			.flatMap((current) -> {
				Instance changed = new Instance(id, (name != null) ? name : current.name(), current.channel(),
						(status != null) ? status : current.status(),
						(settings != null) ? json(settings) : current.settings(), current.createdAt(),
						Timestamps.now(this.clock));
				Mono<?> statusEvent = (changed.status() != current.status()) ? this.events.record(
						EventTypes.INSTANCE_STATUS_PREFIX + changed.status().name().toLowerCase(Locale.ROOT), id, id,
						changed) : Mono.empty();
				return this.repository.update(changed)
					.flatMap((updated) -> this.events.record(EventTypes.INSTANCE_UPDATED, id, id, updated))
					.then(statusEvent)
					.thenReturn(changed);
			})
			.as(this.transaction::transactional)
			.onErrorMap(DuplicateKeyException.class, (ex) -> duplicateName(name));
	}

	/** Deletes the instance with its chats, messages and webhooks. */
	public Mono<Void> delete(Caller caller, UUID id) {
		caller.requireInstance(id);
		return this.repository.findById(id)
			.switchIfEmpty(Mono.error(() -> ApiException.notFound("Instance", id)))
			.flatMap((instance) -> this.repository.delete(id)
				.then(this.events.record(EventTypes.INSTANCE_DELETED, id, id,
						Map.of("id", id, "name", instance.name()))))
			.as(this.transaction::transactional)
			.then();
	}

	private String json(Map<String, Object> settings) {
		return this.jsonMapper.writeValueAsString((settings != null) ? settings : Map.of());
	}

	private static ApiException duplicateName(String name) {
		return ApiException.conflict("An instance named '" + name + "' already exists");
	}

}
