package dev.junction.messaging.webhook;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;

import dev.junction.database.Notifications;
import dev.junction.messaging.common.SerializedEmitter;
import dev.junction.messaging.common.Timestamps;
import dev.junction.messaging.event.Event;
import dev.junction.messaging.event.EventBus;
import dev.junction.messaging.event.EventRepository;
import dev.junction.messaging.webhook.DeliveryRepository.Claim;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;
import org.springframework.transaction.reactive.TransactionalOperator;

/**
 * Makes the deliveries that are due, shared with every other instance on the database:
 * each attempt is made under a lease on its delivery ({@code FOR UPDATE SKIP LOCKED} on
 * PostgreSQL), so no two instances attempt it at once while the lease holds, and the
 * deliveries of an instance that dies are taken over once their leases run out. A failed
 * attempt is due again after an exponential backoff; after {@code max-attempts} in a
 * round the delivery is a dead letter, which the API can revive for another round.
 * Deliveries are looked for when this instance commits an event, when another one
 * announces deliveries, when a retry falls due here, and every {@code poll-interval}.
 */
@Component
public class WebhookDispatcher implements SmartLifecycle {

	private static final Logger logger = LoggerFactory.getLogger(WebhookDispatcher.class);

	/** This instance, as the holder of its leases. */
	private final UUID owner = UUID.randomUUID();

	private final AtomicInteger inFlight = new AtomicInteger();

	private final EventBus bus;

	private final Notifications notifications;

	private final WebhookRepository webhooks;

	private final DeliveryRepository deliveries;

	private final EventRepository events;

	private final WebhookSender sender;

	private final WebhookProperties properties;

	private final TransactionalOperator transaction;

	private final JsonMapper jsonMapper;

	private final Clock clock;

	private final WebhookMetrics metrics;

	private volatile SerializedEmitter<Duration> wakeups = newWakeups();

	private volatile Disposable subscription;

	public WebhookDispatcher(EventBus bus, Notifications notifications, WebhookRepository webhooks,
			DeliveryRepository deliveries, EventRepository events, WebhookSender sender, WebhookProperties properties,
			TransactionalOperator transaction, JsonMapper jsonMapper, Clock clock, WebhookMetrics metrics) {
		this.bus = bus;
		this.notifications = notifications;
		this.webhooks = webhooks;
		this.deliveries = deliveries;
		this.events = events;
		this.sender = sender;
		this.properties = properties;
		this.transaction = transaction;
		this.jsonMapper = jsonMapper;
		this.clock = clock;
		this.metrics = metrics;
	}

	@Override
	public void start() {
		// A fresh queue per start: a stopped dispatcher's queue is gone with its
		// subscriber.
		SerializedEmitter<Duration> queue = newWakeups();
		this.wakeups = queue;
		Flux<Object> signals = Flux.merge(Flux.interval(Duration.ZERO, this.properties.pollInterval()),
				this.bus.committedHere(), this.notifications.listen(DeliveryRepository.CHANNEL),
				queue.asFlux().flatMap(Mono::delay));
		// Claims never exceed the free slots, so no claimed delivery waits here for one.
		this.subscription = signals.onBackpressureLatest()
			.concatMap((signal) -> claim(), 1)
			.flatMap(this::attempt, Integer.MAX_VALUE)
			.subscribe();
	}

	@Override
	public void stop() {
		Disposable current = this.subscription;
		if (current != null) {
			current.dispose();
		}
		this.subscription = null;
	}

	/** Stops, and hands the deliveries leased here back for others to take at once. */
	@Override
	public void stop(Runnable callback) {
		stop();
		this.deliveries.release(this.owner).onErrorResume((ex) -> {
			logger.warn("Delivery leases not released: {}", ex.toString());
			return Mono.empty();
		}).doFinally((signal) -> callback.run()).subscribe();
	}

	@Override
	public boolean isRunning() {
		return this.subscription != null;
	}

	/** Looks for due deliveries now (a dead letter was revived). */
	void revived() {
		this.metrics.recount();
		this.wakeups.emit(Duration.ZERO);
	}

	private static SerializedEmitter<Duration> newWakeups() {
		return new SerializedEmitter<>(Sinks.many().unicast().onBackpressureBuffer(), (delay, result) -> {
		});
	}

	private Flux<Claim> claim() {
		return Flux.defer(() -> {
			int free = this.properties.concurrency() - this.inFlight.get();
			if (free <= 0) {
				return Flux.empty();
			}
			Instant now = now();
			return this.deliveries.claim(this.owner, now, now.plus(this.properties.leaseTime()), free)
				.collectList()
				.as(this.transaction::transactional)
				.doOnNext((claims) -> this.inFlight.addAndGet(claims.size()))
				.flatMapIterable((claims) -> claims)
				.onErrorResume((ex) -> {
					logger.warn("Deliveries not claimed: {}", ex.toString());
					return Flux.empty();
				});
		});
	}

	/**
	 * One attempt of a claimed delivery. It reads the subscription first, so it goes to
	 * the subscription's current URL with its current secret, and is not made when the
	 * subscription was deleted or paused meanwhile.
	 */
	private Mono<Void> attempt(Claim claim) {
		Delivery delivery = claim.delivery();
		return Mono.zip(this.webhooks.findById(delivery.webhookId()), this.events.findById(delivery.eventId()))
			.flatMap((found) -> {
				Webhook webhook = found.getT1();
				if (!webhook.active()) {
					return this.deliveries.finish(delivery.id(), DeliveryStatus.CANCELLED, now()).then();
				}
				Event event = found.getT2();
				return this.sender
					.send(webhook, delivery.id(), event, this.jsonMapper.writeValueAsBytes(event),
							delivery.attempts() + 1)
					.flatMap((status) -> record(claim, status >= 200 && status < 300, status, "HTTP " + status))
					.onErrorResume(
							(ex) -> record(claim, false, null, ex.getClass().getSimpleName() + ": " + ex.getMessage()));
			})
			.onErrorResume((ex) -> {
				logger.warn("Delivery {} state not saved: {}", delivery.id(), ex.toString());
				return Mono.empty();
			})
			.doFinally((signal) -> {
				this.inFlight.decrementAndGet();
				this.wakeups.emit(Duration.ZERO);
			});
	}

	private Mono<Void> record(Claim claim, boolean delivered, Integer status, String error) {
		Delivery delivery = claim.delivery();
		int inRound = claim.roundAttempts() + 1;
		Instant now = now();
		Duration backoff = (!delivered && inRound < this.properties.maxAttempts()) ? backoff(inRound) : null;
		Instant retryAt = (backoff != null) ? now.plus(backoff) : null;
		return this.deliveries
			.recordAttempt(delivery.id(), this.owner, delivered, status, delivered ? null : error, now, retryAt)
			.doOnNext((updated) -> {
				if (updated == 0) {
					logger.info(
							"Attempt {} of delivery {} not recorded: its lease ran out or it was cancelled meanwhile",
							delivery.attempts() + 1, delivery.id());
				}
				else if (delivered) {
					this.metrics.delivered();
				}
				else if (backoff != null) {
					this.metrics.retried();
					this.wakeups.emit(backoff);
				}
				else {
					this.metrics.deadLettered();
					logger.info("Delivery {} of event {} to webhook {} is a dead letter after {} attempts",
							delivery.id(), delivery.eventId(), delivery.webhookId(), delivery.attempts() + 1);
				}
			})
			.then();
	}

	/**
	 * The wait before attempt {@code attempt + 1} of a round: doubling from base-delay,
	 * up to max-delay, ±10 %.
	 */
	private Duration backoff(int attempt) {
		long base = this.properties.baseDelay().toMillis();
		long millis = Math.min(this.properties.maxDelay().toMillis(), base << Math.min(attempt - 1, 30));
		return Duration.ofMillis(Math.round(millis * ThreadLocalRandom.current().nextDouble(0.9, 1.1)));
	}

	private Instant now() {
		return Timestamps.now(this.clock);
	}

}
