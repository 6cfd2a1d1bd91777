package dev.junction.messaging.webhook;

import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.util.Base64;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Set;
import java.util.UUID;

import dev.junction.messaging.apikey.Caller;
import dev.junction.messaging.common.Ids;
import dev.junction.messaging.common.Timestamps;
import dev.junction.messaging.event.EventRepository;
import dev.junction.messaging.instance.InstanceRepository;
import dev.junction.messaging.web.ApiException;
import dev.junction.messaging.web.Page;
import dev.junction.messaging.web.PageRequest;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import org.springframework.stereotype.Service;
import org.springframework.transaction.reactive.TransactionalOperator;

/** Manages subscriptions and dead letters. */
@Service
public class WebhookService {

	private static final SecureRandom RANDOM = new SecureRandom();

	private final WebhookRepository webhooks;

	private final DeliveryRepository deliveries;

	private final InstanceRepository instances;

	private final EventRepository events;

	private final WebhookDispatcher dispatcher;

	private final TransactionalOperator transaction;

	private final Clock clock;

	public WebhookService(WebhookRepository webhooks, DeliveryRepository deliveries, InstanceRepository instances,
			EventRepository events, WebhookDispatcher dispatcher, TransactionalOperator transaction, Clock clock) {
		this.transaction = transaction;
		this.webhooks = webhooks;
		this.deliveries = deliveries;
		this.instances = instances;
		this.events = events;
		this.dispatcher = dispatcher;
		this.clock = clock;
	}

	/** Creates a subscription; the secret is generated when not given. */
	public Mono<Webhook> create(Caller caller, UUID instanceId, String url, Set<String> eventTypes, String secret) {
		caller.requireInstance(instanceId);
		Mono<String> signingKey = (secret != null) ? Mono.just(secret)
				: Mono.fromCallable(WebhookService::newSecret).subscribeOn(Schedulers.boundedElastic());
		return this.instances.findById(instanceId)
			.switchIfEmpty(
					Mono.error(() -> ApiException.invalid("instanceId", "instance " + instanceId + " does not exist")))
			.then(signingKey)
			.flatMap((key) -> {
				Instant now = Timestamps.now(this.clock);
				return this.webhooks.insert(
						new Webhook(Ids.next(), instanceId, url, new LinkedHashSet<>(eventTypes), key, true, now, now));
			});
	}

	public Mono<Webhook> get(Caller caller, UUID id) {
		return this.webhooks.findById(id)
			.filter((webhook) -> caller.canAccess(webhook.instanceId()))
			.switchIfEmpty(Mono.error(() -> ApiException.notFound("Webhook", id)));
	}

	public Mono<Page<Webhook>> list(Caller caller, UUID instanceId, PageRequest page) {
		return this.webhooks.page(caller, instanceId, page)
			.collectList()
			.map((rows) -> Page.of(rows, page, Webhook::position));
	}

	/**
	 * Applies the non-null changes. Pausing a subscription cancels its unfinished
	 * deliveries; a new URL is where the next attempt of every unfinished one goes.
	 */
	public Mono<Webhook> update(Caller caller, UUID id, String url, Set<String> eventTypes, Boolean active) {
		Instant now = Timestamps.now(this.clock);
		return get(caller, id).flatMap((current) -> {
			Webhook changed = new Webhook(id, current.instanceId(), (url != null) ? url : current.url(),
					(eventTypes != null) ? new LinkedHashSet<>(eventTypes) : current.eventTypes(), current.secret(),
					(active != null) ? active : current.active(), current.createdAt(), now);
			Mono<Long> cancelled = (current.active() && !changed.active()) ? this.deliveries.cancelUnfinished(id, now)
					: Mono.just(0L);
			return this.webhooks.update(changed).flatMap((updated) -> cancelled.thenReturn(updated));
		}).as(this.transaction::transactional);
	}

	public Mono<Void> delete(Caller caller, UUID id) {
		return get(caller, id).flatMap((webhook) -> this.webhooks.delete(id)).then();
	}

	public Mono<Page<Delivery>> deliveries(Caller caller, UUID instanceId, UUID webhookId, DeliveryStatus status,
			PageRequest page) {
		return this.deliveries.page(caller, instanceId, webhookId, status, page)
			.collectList()
			.map((rows) -> Page.of(rows, page, Delivery::position));
	}

	/**
	 * Gives a dead letter another round of attempts; 409 when it is not dead or its
	 * subscription is paused.
	 */
	public Mono<Delivery> retry(Caller caller, UUID deliveryId) {
		return this.deliveries.findById(deliveryId)
			.filter((delivery) -> caller.canAccess(delivery.instanceId()))
			.switchIfEmpty(Mono.error(() -> ApiException.notFound("Delivery", deliveryId)))
			.flatMap((delivery) -> this.webhooks.findById(delivery.webhookId())
				.switchIfEmpty(Mono.error(() -> ApiException.notFound("Webhook", delivery.webhookId())))
				.filter(Webhook::active)
				.switchIfEmpty(Mono.error(() -> ApiException.conflict("Webhook " + delivery.webhookId()
						+ " is paused: set it active before retrying its deliveries")))
				.zipWith(this.events.findById(delivery.eventId())
					.switchIfEmpty(Mono.error(() -> ApiException.notFound("Event", delivery.eventId()))))
				.flatMap(
						(found) -> this.deliveries.revive(deliveryId, Timestamps.now(this.clock)).flatMap((revived) -> {
							if (revived == 0) {
								return Mono.error(ApiException.conflict("Delivery " + deliveryId + " is "
										+ delivery.status().name().toLowerCase(Locale.ROOT) + ", not a dead letter"));
							}
							this.dispatcher.revived();
							return this.deliveries.findById(deliveryId);
						})));
	}

	/**
	 * A new signing key; reads the secure random source, so call it off the event loops.
	 */
	private static String newSecret() {
		byte[] bytes = new byte[24];
		RANDOM.nextBytes(bytes);
		return "whsec_" + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
	}

}
