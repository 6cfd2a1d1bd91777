package dev.junction.messaging.apikey;

import java.net.URI;
import java.time.Clock;
import java.time.Instant;
import java.util.Set;
import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.junction.messaging.common.Api;
import dev.junction.messaging.web.Page;
import dev.junction.messaging.web.PageRequest;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.Size;
import reactor.core.publisher.Mono;

import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code /api-keys}: admin keys issue, list and revoke API keys, each within what it
 * holds itself (see {@link Caller#requireCanIssue} and {@link Caller#canManage}).
 */
@RestController
@RequestMapping(Api.BASE + "/api-keys")
class ApiKeyController {

	private final ApiKeyService service;

	private final Clock clock;

	ApiKeyController(ApiKeyService service, Clock clock) {
		this.service = service;
		this.clock = clock;
	}

	@PostMapping
	Mono<ResponseEntity<KeyView>> create(Caller caller, @Valid @RequestBody CreateApiKeyRequest request) {
		return this.service
			.create(caller, request.name().trim(), request.scopes(), request.instanceIds(), request.expiresAt())
			.map((issued) -> ResponseEntity.created(URI.create(Api.BASE + "/api-keys/" + issued.key().id()))
				.body(KeyView.of(issued.key(), issued.rawKey(), this.clock.instant())));
	}

	@GetMapping
	Mono<Page<KeyView>> list(Caller caller, @RequestParam(required = false) Boolean revoked,
			@RequestParam(required = false) UUID instanceId, @RequestParam(required = false) Integer limit,
			@RequestParam(required = false) String cursor) {
		Instant now = this.clock.instant();
		return this.service.list(caller, revoked, instanceId, PageRequest.of(limit, cursor))
			.map((page) -> page.map((key) -> KeyView.of(key, null, now)));
	}

	@GetMapping("/{id}")
	Mono<KeyView> get(Caller caller, @PathVariable UUID id) {
		return this.service.get(caller, id).map((key) -> KeyView.of(key, null, this.clock.instant()));
	}

	@DeleteMapping("/{id}")
	Mono<ResponseEntity<Void>> revoke(Caller caller, @PathVariable UUID id) {
		return this.service.revoke(caller, id).thenReturn(ResponseEntity.noContent().build());
	}

	/**
	 * Request to issue a key.
	 *
	 * @param name what the key is for
	 * @param scopes what the key may do
	 * @param instanceIds instances the key is limited to; omit for all
	 * @param expiresAt when the key stops working; omit for never
	 */
	record CreateApiKeyRequest(@NotBlank @Size(max = 100) String name, @NotEmpty Set<Scope> scopes,
			@Size(max = 1000) Set<UUID> instanceIds, Instant expiresAt) {
	}

	/**
	 * An API key as shown to admins.
	 *
	 * @param id key id
	 * @param name key name
	 * @param prefix first characters of the key
	 * @param key the key itself, only in the answer that issues it
	 * @param scopes what the key may do
	 * @param instanceIds instances the key is limited to (empty: all)
	 * @param active whether the key works (neither revoked nor expired)
	 * @param createdAt creation time
	 * @param expiresAt when the key stops working, if it does
	 * @param revokedAt revocation time
	 */
	@JsonInclude(JsonInclude.Include.NON_NULL)
	record KeyView(UUID id, String name, String prefix, String key, Set<Scope> scopes, Set<UUID> instanceIds,
			boolean active, Instant createdAt, Instant expiresAt, Instant revokedAt) {

		static KeyView of(ApiKey key, String raw, Instant now) {
			return new KeyView(key.id(), key.name(), key.keyPrefix(), raw, key.scopes(), key.instanceIds(),
					key.active() && !key.expired(now), key.createdAt(), key.expiresAt(), key.revokedAt());
		}

	}

}
