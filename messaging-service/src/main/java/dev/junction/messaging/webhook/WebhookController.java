package dev.junction.messaging.webhook;

import java.net.URI;
import java.time.Instant;
import java.util.Set;
import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.junction.messaging.apikey.Caller;
import dev.junction.messaging.common.Api;
import dev.junction.messaging.web.Page;
import dev.junction.messaging.web.PageRequest;
import dev.junction.messaging.web.QueryParams;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import reactor.core.publisher.Mono;

import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PatchMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** {@code /webhooks}: subscriptions, their deliveries and the dead letters. */
@RestController
@RequestMapping(Api.BASE + "/webhooks")
class WebhookController {

	private static final String URL = "(?i)https?://\\S+";

	private final WebhookService service;

	WebhookController(WebhookService service) {
		this.service = service;
	}

	@PostMapping
	Mono<ResponseEntity<WebhookView>> create(Caller caller, @Valid @RequestBody CreateWebhookRequest request) {
		return this.service.create(caller, request.instanceId(), request.url(), request.eventTypes(), request.secret())
			.map((webhook) -> ResponseEntity.created(URI.create(Api.BASE + "/webhooks/" + webhook.id()))
				.body(WebhookView.of(webhook, true)));
	}

	@GetMapping
	Mono<Page<WebhookView>> list(Caller caller, @RequestParam(required = false) UUID instanceId,
			@RequestParam(required = false) Integer limit, @RequestParam(required = false) String cursor) {
		return this.service.list(caller, instanceId, PageRequest.of(limit, cursor))
			.map((page) -> page.map((webhook) -> WebhookView.of(webhook, false)));
	}

	@GetMapping("/dead-letters")
	Mono<Page<Delivery>> deadLetters(Caller caller, @RequestParam(required = false) UUID instanceId,
			@RequestParam(required = false) UUID webhookId, @RequestParam(required = false) Integer limit,
			@RequestParam(required = false) String cursor) {
		return this.service.deliveries(caller, instanceId, webhookId, DeliveryStatus.DEAD,
				PageRequest.of(limit, cursor));
	}

	@PostMapping("/dead-letters/{deliveryId}/retry")
	Mono<ResponseEntity<Delivery>> retry(Caller caller, @PathVariable UUID deliveryId) {
		return this.service.retry(caller, deliveryId)
			.map((delivery) -> ResponseEntity.status(HttpStatus.ACCEPTED).body(delivery));
	}

	@GetMapping("/{id}")
	Mono<WebhookView> get(Caller caller, @PathVariable UUID id) {
		return this.service.get(caller, id).map((webhook) -> WebhookView.of(webhook, false));
	}

	@GetMapping("/{id}/deliveries")
	Mono<Page<Delivery>> deliveries(Caller caller, @PathVariable UUID id, @RequestParam(required = false) String status,
			@RequestParam(required = false) Integer limit, @RequestParam(required = false) String cursor) {
		PageRequest page = PageRequest.of(limit, cursor);
		DeliveryStatus wanted = QueryParams.enumValue("status", status, DeliveryStatus.class);
		return this.service.get(caller, id).then(this.service.deliveries(caller, null, id, wanted, page));
	}

	@PatchMapping("/{id}")
	Mono<WebhookView> update(Caller caller, @PathVariable UUID id, @Valid @RequestBody UpdateWebhookRequest request) {
		return this.service.update(caller, id, request.url(), request.eventTypes(), request.active())
			.map((webhook) -> WebhookView.of(webhook, false));
	}

	@DeleteMapping("/{id}")
	Mono<ResponseEntity<Void>> delete(Caller caller, @PathVariable UUID id) {
		return this.service.delete(caller, id).thenReturn(ResponseEntity.noContent().build());
	}

	/**
	 * Request to subscribe.
	 *
	 * @param instanceId the instance whose events are delivered
	 * @param url where to POST them
	 * @param eventTypes event types to deliver; {@code *} for all
	 * @param secret signing key; generated when omitted
	 */
	record CreateWebhookRequest(@NotNull UUID instanceId, @NotNull @Size(max = 2048) @Pattern(regexp = URL) String url,
			@NotEmpty @Size(max = 50) Set<@Pattern(regexp = "\\*|[a-z_]+\\.[a-z_]+") String> eventTypes,
			@Size(min = 16, max = 200) String secret) {
	}

	/**
	 * Changes to a subscription; absent fields stay as they are.
	 *
	 * @param url new URL
	 * @param eventTypes new event types
	 * @param active pause (false) or resume (true) deliveries
	 */
	record UpdateWebhookRequest(@Size(max = 2048) @Pattern(regexp = URL) String url,
			@Size(min = 1, max = 50) Set<@Pattern(regexp = "\\*|[a-z_]+\\.[a-z_]+") String> eventTypes,
			Boolean active) {
	}

	/**
	 * A subscription as shown; the secret only in the answer that creates it.
	 *
	 * @param id subscription id
	 * @param instanceId the instance
	 * @param url the receiver
	 * @param eventTypes the event types delivered
	 * @param secret the signing key (creation only)
	 * @param active whether deliveries are made
	 * @param createdAt creation time
	 * @param updatedAt last change
	 */
	@JsonInclude(JsonInclude.Include.NON_NULL)
	record WebhookView(UUID id, UUID instanceId, String url, Set<String> eventTypes, String secret, boolean active,
			Instant createdAt, Instant updatedAt) {

		static WebhookView of(Webhook webhook, boolean withSecret) {
			return new WebhookView(webhook.id(), webhook.instanceId(), webhook.url(), webhook.eventTypes(),
					withSecret ? webhook.secret() : null, webhook.active(), webhook.createdAt(), webhook.updatedAt());
		}

	}

}
