package dev.junction.messaging.chat;

import java.net.URI;
import java.util.UUID;

import dev.junction.messaging.apikey.Caller;
import dev.junction.messaging.chat.ChatRepository.ChatFilter;
import dev.junction.messaging.common.Api;
import dev.junction.messaging.web.Page;
import dev.junction.messaging.web.PageRequest;
import dev.junction.messaging.web.QueryParams;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import reactor.core.publisher.Mono;

import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PatchMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code /chats}. Messages of a chat are under {@code /chats/{id}/messages} (see the
 * message package).
 */
@RestController
@RequestMapping(Api.BASE + "/chats")
class ChatController {

	private final ChatService service;

	ChatController(ChatService service) {
		this.service = service;
	}

	@PostMapping
	Mono<ResponseEntity<Chat>> create(Caller caller, @Valid @RequestBody CreateChatRequest request) {
		return this.service
			.create(caller, request.instanceId(), request.remoteId().trim(), request.name(), request.type())
			.map((chat) -> ResponseEntity.created(URI.create(Api.BASE + "/chats/" + chat.id())).body(chat));
	}

	@GetMapping
	Mono<Page<Chat>> list(Caller caller, @RequestParam(required = false) UUID instanceId,
			@RequestParam(required = false) String type, @RequestParam(required = false) Boolean archived,
			@RequestParam(required = false) Boolean pinned, @RequestParam(required = false) Boolean muted,
			@RequestParam(required = false) Integer limit, @RequestParam(required = false) String cursor) {
		PageRequest page = PageRequest.of(limit, cursor);
		ChatFilter filter = new ChatFilter(instanceId, QueryParams.enumValue("type", type, ChatType.class), archived,
				pinned, muted);
		return this.service.list(caller, filter, page);
	}

	@GetMapping("/{id}")
	Mono<Chat> get(Caller caller, @PathVariable UUID id) {
		return this.service.get(caller, id);
	}

	@PatchMapping("/{id}")
	Mono<Chat> rename(Caller caller, @PathVariable UUID id, @Valid @RequestBody RenameChatRequest request) {
		return this.service.rename(caller, id, request.name());
	}

	@PostMapping("/{id}/{action:archive|unarchive|pin|unpin|mute|unmute|read}")
	Mono<Chat> act(Caller caller, @PathVariable UUID id, @PathVariable String action) {
		return this.service.apply(caller, id, QueryParams.enumValue("action", action, ChatAction.class));
	}

	/**
	 * Request to create a chat.
	 *
	 * @param instanceId the instance it belongs to
	 * @param remoteId the network's id for the conversation
	 * @param name display name
	 * @param type kind of conversation (default direct)
	 */
	record CreateChatRequest(@NotNull UUID instanceId, @NotBlank @Size(max = 200) String remoteId,
			@Size(max = 200) String name, ChatType type) {
	}

	/**
	 * Request to rename a chat.
	 *
	 * @param name new display name
	 */
	record RenameChatRequest(@NotBlank @Size(max = 200) String name) {
	}

}
