package dev.junction.messaging.webhook;

import java.time.Clock;
import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import dev.junction.messaging.common.Ids;
import dev.junction.messaging.common.SerializedEmitter;
import dev.junction.messaging.common.Timestamps;
import dev.junction.messaging.event.Event;
import dev.junction.messaging.event.EventBus;
import dev.junction.messaging.event.EventRepository;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.util.retry.Retry;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * Turns committed events into deliveries for the matching subscriptions and makes them:
 * each delivery is attempted up to {@code max-attempts} times with exponential backoff,
 * every attempt recorded, and becomes a dead letter after the last one. Dead letters
 * retried through the API come back through {@link #redeliver}.
 */
@Component
public class WebhookDispatcher implements SmartLifecycle {

	private static final Logger logger = LoggerFactory.getLogger(WebhookDispatcher.class);

	private static final int EVENT_BUFFER = 10_000;

	/** Unfinished deliveries resumed at start-up. */
	private static final int RECOVERY_LIMIT = 10_000;

	private final EventBus bus;

	private final WebhookRepository webhooks;

	private final DeliveryRepository deliveries;

	private final EventRepository events;

	private final WebhookSender sender;

	private final WebhookProperties properties;

	private final JsonMapper jsonMapper;

	private final Clock clock;

	private final WebhookMetrics metrics;

	private volatile SerializedEmitter<Job> redeliveries = newQueue();

	private volatile Disposable subscription;

	public WebhookDispatcher(EventBus bus, WebhookRepository webhooks, DeliveryRepository deliveries,
			EventRepository events, WebhookSender sender, WebhookProperties properties, JsonMapper jsonMapper,
			Clock clock, WebhookMetrics metrics) {
		this.events = events;
		this.bus = bus;
		this.webhooks = webhooks;
		this.deliveries = deliveries;
		this.sender = sender;
		this.properties = properties;
		this.jsonMapper = jsonMapper;
		this.clock = clock;
		this.metrics = metrics;
	}

	@Override
	public void start() {
		// A fresh queue per start: a stopped dispatcher's queue is gone with its subscriber.
		SerializedEmitter<Job> queue = newQueue();
		this.redeliveries = queue;
		Flux<Job> fromEvents = this.bus.committedHere()
			.filter((event) -> event.instanceId() != null)
			.onBackpressureBuffer(EVENT_BUFFER,
					(dropped) -> logger.warn("Webhook dispatch overloaded: event {} not delivered", dropped.id()))
			.concatMap(this::jobsFor);
		this.subscription = Flux.merge(recovered(), fromEvents, queue.asFlux())
			.flatMap(this::deliver, this.properties.concurrency())
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

	@Override
	public boolean isRunning() {
		return this.subscription != null;
	}

	/** Queues another round of attempts for a delivery revived from the dead letters. */
	void redeliver(Delivery delivery, Event event) {
		this.metrics.recount();
		this.redeliveries.emit(new Job(delivery.id(), delivery.webhookId(), event));
	}

	private static SerializedEmitter<Job> newQueue() {
		return new SerializedEmitter<>(Sinks.many().unicast().onBackpressureBuffer(),
				(job, result) -> logger.warn("Delivery {} not queued for retry: {}", job.deliveryId(), result));
	}

	/** Deliveries a previous run left unfinished (at-least-once: a receiver may see one twice). */
	private Flux<Job> recovered() {
		return this.deliveries.findUnfinished(RECOVERY_LIMIT)
			.concatMap((delivery) -> this.events.findById(delivery.eventId())
				.map((event) -> new Job(delivery.id(), delivery.webhookId(), event)))
			.doOnNext((job) -> logger.info("Resuming delivery {} of event {}", job.deliveryId(), job.event().id()))
			.onErrorResume((ex) -> {
				logger.warn("Unfinished deliveries not resumed: {}", ex.toString());
				return Flux.empty();
			});
	}

	private Flux<Job> jobsFor(Event event) {
		return this.webhooks.findActiveByInstance(event.instanceId())
			.filter((webhook) -> webhook.accepts(event.type()))
			.flatMap((webhook) -> {
				Delivery delivery = new Delivery(Ids.next(), webhook.id(), event.id(), event.instanceId(),
						DeliveryStatus.PENDING, 0, null, null, null, Timestamps.now(this.clock), null);
				return this.deliveries.insert(delivery).map((stored) -> new Job(stored.id(), webhook.id(), event));
			})
			.onErrorResume((ex) -> {
				logger.warn("Deliveries for event {} not created: {}", event.id(), ex.toString());
				return Flux.empty();
			});
	}

	/**
	 * One round of up to {@code max-attempts} attempts. Each attempt reads the subscription
	 * and the delivery again, so it goes to the subscription's current URL with its current
	 * secret, numbers itself after every attempt recorded before (earlier rounds included),
	 * and stops when the subscription was deleted or paused meanwhile.
	 */
	private Mono<Void> deliver(Job job) {
		byte[] body = this.jsonMapper.writeValueAsBytes(job.event());
		AtomicInteger attempts = new AtomicInteger();
		return Mono.defer(() -> attempt(job, body, attempts))
			.retryWhen(Retry.backoff(this.properties.maxAttempts() - 1L, this.properties.baseDelay())
				.maxBackoff(this.properties.maxDelay())
				.jitter(0.1))
			.onErrorResume((ex) -> this.deliveries.finish(job.deliveryId(), DeliveryStatus.DEAD, now())
				.filter((updated) -> updated > 0)
				.doOnNext((updated) -> this.metrics.deadLettered())
				.doOnNext((updated) -> logger.info("Delivery {} of event {} to webhook {} is a dead letter after {} attempts",
						job.deliveryId(), job.event().id(), job.webhookId(), attempts.get()))
				.then())
			.onErrorResume((ex) -> {
				logger.warn("Delivery {} state not saved: {}", job.deliveryId(), ex.toString());
				return Mono.empty();
			});
	}

	/** Completes empty when there is nothing (more) to send; fails when an attempt failed. */
	private Mono<Void> attempt(Job job, byte[] body, AtomicInteger attempts) {
		return Mono.zip(this.deliveries.findById(job.deliveryId()), this.webhooks.findById(job.webhookId()))
			.flatMap((found) -> {
				Delivery delivery = found.getT1();
				Webhook webhook = found.getT2();
				if (delivery.status() != DeliveryStatus.PENDING && delivery.status() != DeliveryStatus.RETRYING) {
					return Mono.empty();
				}
				if (!webhook.active()) {
					return this.deliveries.finish(delivery.id(), DeliveryStatus.CANCELLED, now()).then();
				}
				return send(job, webhook, body, delivery.attempts() + 1, attempts.incrementAndGet());
			});
	}

	/** Attempt {@code attempt} of the delivery, {@code inRound} of this round. */
	private Mono<Void> send(Job job, Webhook webhook, byte[] body, int attempt, int inRound) {
		return this.sender.send(webhook, job.deliveryId(), job.event(), body, attempt)
			.onErrorResume((ex) -> this.deliveries
				.recordAttempt(job.deliveryId(), false, null, ex.getClass().getSimpleName() + ": " + ex.getMessage(), now())
				.then(Mono.error(ex)))
			.flatMap((status) -> {
				boolean delivered = status >= 200 && status < 300;
				Mono<Long> recorded = this.deliveries.recordAttempt(job.deliveryId(), delivered, status,
						delivered ? null : "HTTP " + status, now());
				return delivered ? recorded.doOnSuccess((updated) -> this.metrics.delivered()).then()
						: recorded.then(Mono.error(new DeliveryFailedException(status)));
			})
			.doOnError((ex) -> {
				if (inRound < this.properties.maxAttempts()) {
					this.metrics.retried();
				}
			});
	}

	private Instant now() {
		return Timestamps.now(this.clock);
	}

	/** One delivery to make: the subscription is read again before each attempt. */
	private record Job(UUID deliveryId, UUID webhookId, Event event) {
	}

	/** A receiver answered with a status other than 2xx. */
	static final class DeliveryFailedException extends RuntimeException {

		DeliveryFailedException(int status) {
			super("receiver answered " + status, null, false, false);
		}

	}

}
