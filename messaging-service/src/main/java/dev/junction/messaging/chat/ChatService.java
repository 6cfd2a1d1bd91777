package dev.junction.messaging.chat;

import java.time.Clock;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;

import dev.junction.messaging.apikey.Caller;
import dev.junction.messaging.chat.ChatRepository.ChatFilter;
import dev.junction.messaging.common.Ids;
import dev.junction.messaging.common.Timestamps;
import dev.junction.messaging.event.EventRecorder;
import dev.junction.messaging.event.EventTypes;
import dev.junction.messaging.instance.InstanceRepository;
import dev.junction.messaging.web.ApiException;
import dev.junction.messaging.web.Page;
import dev.junction.messaging.web.PageRequest;
import reactor.core.publisher.Mono;

import org.springframework.dao.DuplicateKeyException;
import org.springframework.stereotype.Service;
import org.springframework.transaction.reactive.TransactionalOperator;

/**
 * Creates and changes chats; every change is recorded as an event in the same
 * transaction.
 */
@Service
public class ChatService {

	private final ChatRepository repository;

	private final InstanceRepository instances;

	private final EventRecorder events;

	private final TransactionalOperator transaction;

	private final Clock clock;

	public ChatService(ChatRepository repository, InstanceRepository instances, EventRecorder events,
			TransactionalOperator transaction, Clock clock) {
		this.repository = repository;
		this.instances = instances;
		this.events = events;
		this.transaction = transaction;
		this.clock = clock;
	}

	public Mono<Chat> create(Caller caller, UUID instanceId, String remoteId, String name, ChatType type) {
		caller.requireInstance(instanceId);
		Instant now = Timestamps.now(this.clock);
		Chat chat = new Chat(Ids.next(), instanceId, remoteId, name, (type != null) ? type : ChatType.DIRECT, false,
				false, false, 0, 0, null, now, now);
		return this.instances.findById(instanceId)
			.switchIfEmpty(
					Mono.error(() -> ApiException.invalid("instanceId", "instance " + instanceId + " does not exist")))
			.then(this.repository.insert(chat))
			.flatMap((created) -> this.events.record(EventTypes.CHAT_CREATED, instanceId, created.id(), created)
				.thenReturn(created))
			.as(this.transaction::transactional)
			.onErrorMap(DuplicateKeyException.class,
					(ex) -> ApiException.conflict("Instance " + instanceId + " already has a chat '" + remoteId + "'"));
	}

	/** The chat, when {@code caller} may see it; 404 otherwise. */
	public Mono<Chat> get(Caller caller, UUID id) {
		return this.repository.findById(id)
			.switchIfEmpty(Mono.error(() -> ApiException.notFound("Chat", id)))
			.doOnNext((chat) -> caller.requireInstance(chat.instanceId()));
	}

	public Mono<Page<Chat>> list(Caller caller, ChatFilter filter, PageRequest page) {
		return this.repository.page(caller, filter, page)
			.collectList()
			.map((rows) -> Page.of(rows, page, Chat::position));
	}

	public Mono<Chat> apply(Caller caller, UUID id, ChatAction action) {
		return change(caller, id, action.name().toLowerCase(Locale.ROOT),
				(at) -> this.repository.apply(id, action, at));
	}

	public Mono<Chat> rename(Caller caller, UUID id, String name) {
		return change(caller, id, "rename", (at) -> this.repository.rename(id, name, at));
	}

	private Mono<Chat> change(Caller caller, UUID id, String change, Function<Instant, Mono<Long>> update) {
		return get(caller, id)
			.flatMap((before) -> update.apply(Timestamps.now(this.clock))
				.then(this.repository.findById(id))
				.flatMap((after) -> this.events
					.record(EventTypes.CHAT_UPDATED, after.instanceId(), id, Map.of("change", change, "chat", after))
					.thenReturn(after)))
			.as(this.transaction::transactional);
	}

}
