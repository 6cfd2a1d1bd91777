package dev.junction.messaging.webhook;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import dev.junction.messaging.common.SerializedEmitter;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * Webhook delivery results ({@value #DELIVERIES}, by outcome) and the number of dead
 * letters stored ({@value #DEAD_LETTERS}). The dead letters are counted in the database,
 * off any request, at start-up, every {@code dead-letter-count-interval}, and soon after
 * this instance adds or revives one; the gauge reads the last count.
 */
@Component
public class WebhookMetrics implements SmartLifecycle {

	/** Counter of delivery results, tagged by outcome. */
	public static final String DELIVERIES = "junction.messaging.webhook.deliveries";

	/** Gauge of the dead letters stored. */
	public static final String DEAD_LETTERS = "junction.messaging.webhook.dead.letters";

	private static final Logger logger = LoggerFactory.getLogger(WebhookMetrics.class);

	private final DeliveryRepository deliveries;

	private final WebhookProperties properties;

	private final Counter delivered;

	private final Counter retried;

	private final Counter deadLettered;

	private final AtomicLong deadLetters = new AtomicLong();

	private final SerializedEmitter<Long> recounts = new SerializedEmitter<>(
			Sinks.many().multicast().directBestEffort(),
			(tick, result) -> logger.debug("Dead-letter recount not requested: {}", result));

	private volatile Disposable counting;

	public WebhookMetrics(DeliveryRepository deliveries, WebhookProperties properties, MeterRegistry registry) {
		this.deliveries = deliveries;
		this.properties = properties;
		this.delivered = deliveries(registry, "delivered");
		this.retried = deliveries(registry, "retried");
		this.deadLettered = deliveries(registry, "dead_lettered");
		Gauge.builder(DEAD_LETTERS, this.deadLetters, AtomicLong::get)
			.description("Webhook deliveries stored as dead letters")
			.baseUnit("letters")
			.register(registry);
	}

	private static Counter deliveries(MeterRegistry registry, String outcome) {
		return Counter.builder(DELIVERIES)
			.description("Webhook delivery results: delivered, retried after a failed attempt, or dead-lettered")
			.baseUnit("deliveries")
			.tag("outcome", outcome)
			.register(registry);
	}

	/** A receiver took a delivery. */
	void delivered() {
		this.delivered.increment();
	}

	/** An attempt failed and another one is scheduled. */
	void retried() {
		this.retried.increment();
	}

	/** The last attempt failed: the delivery is now a dead letter. */
	void deadLettered() {
		this.deadLettered.increment();
		recount();
	}

	/** Counts the dead letters again soon (after a change this instance made). */
	void recount() {
		this.recounts.emit(0L);
	}

	@Override
	public void start() {
		this.counting = Flux
			.merge(Flux.interval(Duration.ZERO, this.properties.deadLetterCountInterval()), this.recounts.asFlux())
			.onBackpressureLatest()
			.concatMap((tick) -> this.deliveries.countDead().onErrorResume((ex) -> {
				logger.debug("Dead letters not counted: {}", ex.toString());
				return Mono.empty();
			}), 1)
			.subscribe(this.deadLetters::set);
	}

	@Override
	public void stop() {
		Disposable current = this.counting;
		if (current != null) {
			current.dispose();
		}
		this.counting = null;
	}

	@Override
	public boolean isRunning() {
		return this.counting != null;
	}

}
