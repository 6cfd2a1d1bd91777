package dev.junction.messaging.message;

import java.time.Clock;
import java.time.Instant;
import java.util.UUID;

import dev.junction.messaging.apikey.Caller;
import dev.junction.messaging.chat.Chat;
import dev.junction.messaging.chat.ChatRepository;
import dev.junction.messaging.chat.ChatService;
import dev.junction.messaging.common.Ids;
import dev.junction.messaging.common.Timestamps;
import dev.junction.messaging.event.EventRecorder;
import dev.junction.messaging.event.EventTypes;
import dev.junction.messaging.message.MessageRepository.MessageFilter;
import dev.junction.messaging.web.ApiException;
import dev.junction.messaging.web.Page;
import dev.junction.messaging.web.PageRequest;
import reactor.core.publisher.Mono;

import org.springframework.dao.DuplicateKeyException;
import org.springframework.stereotype.Service;
import org.springframework.transaction.reactive.TransactionalOperator;

/**
 * Sends and lists messages. A send inserts the message, updates the chat's counters and
 * records the event in one transaction; a send repeated with the same idempotency key
 * returns the message stored the first time.
 */
@Service
public class MessageService {

	private final MessageRepository repository;

	private final ChatRepository chatRepository;

	private final ChatService chats;

	private final EventRecorder events;

	private final TransactionalOperator transaction;

	private final Clock clock;

	public MessageService(MessageRepository repository, ChatRepository chatRepository, ChatService chats,
			EventRecorder events, TransactionalOperator transaction, Clock clock) {
		this.repository = repository;
		this.chatRepository = chatRepository;
		this.chats = chats;
		this.events = events;
		this.transaction = transaction;
		this.clock = clock;
	}

	/**
	 * Stores a message; {@link Sent#replayed()} tells whether an earlier send with the
	 * same key was returned.
	 */
	public Mono<Sent> send(Caller caller, SendRequest request) {
		return this.chats.get(caller, request.chatId())
			.switchIfEmpty(Mono.error(() -> ApiException.notFound("Chat", request.chatId())))
			.flatMap((chat) -> previous(chat, request).switchIfEmpty(Mono.defer(() -> insert(chat, request)
				.onErrorResume(DuplicateKeyException.class, (ex) -> previous(chat, request)))));
	}

	private Mono<Sent> previous(Chat chat, SendRequest request) {
		if (request.idempotencyKey() == null) {
			return Mono.empty();
		}
		return this.repository.findByIdempotencyKey(chat.instanceId(), request.idempotencyKey()).map((existing) -> {
			if (!existing.sameContent(chat.id(), request.type(), request.text(), request.media(),
					request.direction())) {
				throw ApiException.conflict(
						"Idempotency key '" + request.idempotencyKey() + "' was already used for a different message");
			}
			return new Sent(existing, true);
		});
	}

	private Mono<Sent> insert(Chat chat, SendRequest request) {
		Instant now = Timestamps.now(this.clock);
		boolean inbound = request.direction() == Direction.INBOUND;
		Message message = new Message(Ids.next(), chat.id(), chat.instanceId(), request.direction(), request.type(),
				inbound ? MessageStatus.RECEIVED : MessageStatus.SENT, request.text(), request.media(),
				request.idempotencyKey(), now, now);
		return this.repository.insert(message)
			.then(this.chatRepository.recordMessage(chat.id(), inbound, now))
			.then(this.events.record(inbound ? EventTypes.MESSAGE_RECEIVED : EventTypes.MESSAGE_SENT, chat.instanceId(),
					message.id(), message))
			.thenReturn(new Sent(message, false))
			.as(this.transaction::transactional);
	}

	public Mono<Message> get(Caller caller, UUID id) {
		return this.repository.findById(id)
			.filter((message) -> caller.canAccess(message.instanceId()))
			.switchIfEmpty(Mono.error(() -> ApiException.notFound("Message", id)));
	}

	public Mono<Page<Message>> list(Caller caller, MessageFilter filter, PageRequest page) {
		return this.repository.page(caller, filter, page)
			.collectList()
			.map((rows) -> Page.of(rows, page, Message::position));
	}

	public Mono<Message> updateStatus(Caller caller, UUID id, MessageStatus status) {
		Instant now = Timestamps.now(this.clock);
		return get(caller, id).flatMap((message) -> {
			Message updated = new Message(message.id(), message.chatId(), message.instanceId(), message.direction(),
					message.type(), status, message.text(), message.media(), message.idempotencyKey(),
					message.timestamp(), now);
			return this.repository.updateStatus(id, status, now)
				.then(this.events.record(EventTypes.MESSAGE_STATUS_CHANGED, message.instanceId(), id, updated))
				.thenReturn(updated);
		}).as(this.transaction::transactional);
	}

	/**
	 * A validated send.
	 *
	 * @param chatId the chat
	 * @param direction inbound or outbound
	 * @param type kind of content
	 * @param text text or caption
	 * @param media media reference
	 * @param idempotencyKey the client's key, or null
	 */
	public record SendRequest(UUID chatId, Direction direction, MessageType type, String text, Media media,
			String idempotencyKey) {
	}

	/**
	 * The outcome of a send.
	 *
	 * @param message the stored message
	 * @param replayed whether it was stored by an earlier send with the same key
	 */
	public record Sent(Message message, boolean replayed) {
	}

}
