package dev.junction.messaging.message;

import java.net.URI;
import java.util.Locale;
import java.util.UUID;

import dev.junction.messaging.apikey.Caller;
import dev.junction.messaging.chat.ChatService;
import dev.junction.messaging.common.Api;
import dev.junction.messaging.message.MessageRepository.MessageFilter;
import dev.junction.messaging.message.MessageService.SendRequest;
import dev.junction.messaging.web.ApiException;
import dev.junction.messaging.web.Page;
import dev.junction.messaging.web.PageRequest;
import dev.junction.messaging.web.QueryParams;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import reactor.core.publisher.Mono;

import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PatchMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** {@code /messages} and {@code /chats/{id}/messages}. */
@RestController
class MessageController {

	/** Header a client may send instead of the body's {@code idempotencyKey}. */
	static final String IDEMPOTENCY_KEY = "Idempotency-Key";

	/** Response header set when a send returned an earlier message. */
	static final String REPLAYED = "Idempotent-Replayed";

	private static final int MAX_TEXT = 65_536;

	private final MessageService service;

	private final ChatService chats;

	MessageController(MessageService service, ChatService chats) {
		this.service = service;
		this.chats = chats;
	}

	@PostMapping(Api.BASE + "/messages")
	Mono<ResponseEntity<Message>> send(Caller caller, @Valid @RequestBody SendMessageRequest request,
			@RequestHeader(name = IDEMPOTENCY_KEY, required = false) String idempotencyHeader) {
		return this.service.send(caller, validate(request, idempotencyHeader)).map((sent) -> {
			if (sent.replayed()) {
				return ResponseEntity.ok().header(REPLAYED, "true").body(sent.message());
			}
			return ResponseEntity.created(URI.create(Api.BASE + "/messages/" + sent.message().id()))
				.body(sent.message());
		});
	}

	@GetMapping(Api.BASE + "/messages")
	Mono<Page<Message>> list(Caller caller, @RequestParam(required = false) UUID chatId,
			@RequestParam(required = false) UUID instanceId, @RequestParam(required = false) String direction,
			@RequestParam(required = false) String type, @RequestParam(required = false) String status,
			@RequestParam(required = false) String since, @RequestParam(required = false) String until,
			@RequestParam(name = "q", required = false) String text, @RequestParam(required = false) Integer limit,
			@RequestParam(required = false) String cursor) {
		PageRequest page = PageRequest.of(limit, cursor);
		return this.service.list(caller, filter(chatId, instanceId, direction, type, status, since, until, text), page);
	}

	@GetMapping(Api.BASE + "/chats/{id}/messages")
	Mono<Page<Message>> listForChat(Caller caller, @PathVariable UUID id,
			@RequestParam(required = false) String direction, @RequestParam(required = false) String type,
			@RequestParam(required = false) String status, @RequestParam(required = false) String since,
			@RequestParam(required = false) String until, @RequestParam(name = "q", required = false) String text,
			@RequestParam(required = false) Integer limit, @RequestParam(required = false) String cursor) {
		PageRequest page = PageRequest.of(limit, cursor);
		MessageFilter filter = filter(id, null, direction, type, status, since, until, text);
		return this.chats.get(caller, id).then(this.service.list(caller, filter, page));
	}

	@GetMapping(Api.BASE + "/messages/{id}")
	Mono<Message> get(Caller caller, @PathVariable UUID id) {
		return this.service.get(caller, id);
	}

	@PatchMapping(Api.BASE + "/messages/{id}")
	Mono<Message> updateStatus(Caller caller, @PathVariable UUID id, @Valid @RequestBody UpdateStatusRequest request) {
		return this.service.updateStatus(caller, id, request.status());
	}

	private static MessageFilter filter(UUID chatId, UUID instanceId, String direction, String type, String status,
			String since, String until, String text) {
		if (text != null && text.length() > 200) {
			throw ApiException.invalid("q", "at most 200 characters");
		}
		QueryParams.text("q", text);
		return new MessageFilter(chatId, instanceId, QueryParams.enumValue("direction", direction, Direction.class),
				QueryParams.enumValue("type", type, MessageType.class),
				QueryParams.enumValue("status", status, MessageStatus.class), QueryParams.instant("since", since),
				QueryParams.instant("until", until), (text != null && !text.isBlank()) ? text : null);
	}

	private static SendRequest validate(SendMessageRequest request, String idempotencyHeader) {
		String text = request.text();
		if ((text == null || text.isBlank()) && request.media() == null) {
			throw ApiException.invalid("text", "a message needs text or media");
		}
		String key = (request.idempotencyKey() != null) ? request.idempotencyKey()
				: QueryParams.text(IDEMPOTENCY_KEY, idempotencyHeader);
		if (key != null && (key.isBlank() || key.length() > 200)) {
			throw ApiException.invalid("idempotencyKey", "must be 1 to 200 characters");
		}
		MessageType type = (request.type() != null) ? request.type()
				: (request.media() != null) ? MessageType.DOCUMENT : MessageType.TEXT;
		if (type == MessageType.TEXT && request.media() != null) {
			throw ApiException.invalid("type", "a text message cannot carry media");
		}
		if (type != MessageType.TEXT && request.media() == null) {
			throw ApiException.invalid("media", "a " + type.name().toLowerCase(Locale.ROOT) + " message needs media");
		}
		Direction direction = (request.direction() != null) ? request.direction() : Direction.OUTBOUND;
		return new SendRequest(request.chatId(), direction, type, text, request.media(), key);
	}

	/**
	 * Request to send (or record) a message.
	 *
	 * @param chatId the chat
	 * @param type kind of content (default text, or document when media is given)
	 * @param text text or caption
	 * @param media media reference
	 * @param direction outbound (default) to send, inbound to record a received message
	 * @param idempotencyKey the client's key, so a retried send is stored once
	 */
	record SendMessageRequest(@NotNull UUID chatId, MessageType type, @Size(max = MAX_TEXT) String text,
			@Valid Media media, Direction direction, String idempotencyKey) {
	}

	/**
	 * Request to change a message's delivery state.
	 *
	 * @param status the new state
	 */
	record UpdateStatusRequest(@NotNull MessageStatus status) {
	}

}
