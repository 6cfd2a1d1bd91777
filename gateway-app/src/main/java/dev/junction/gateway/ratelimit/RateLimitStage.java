package dev.junction.gateway.ratelimit;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

import dev.junction.gateway.error.DeniedException;
import dev.junction.gateway.pipeline.Attempt;
import dev.junction.gateway.pipeline.ChatExchange;
import dev.junction.gateway.pipeline.ChatStage;
import dev.junction.gateway.provider.ChatOutput;
import dev.junction.gateway.provider.Usage;
import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.ConsumptionProbe;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Bucket4j budgets per client (gateway key, or client address when keys are off):
 * requests per window, and tokens per window reserved up front from {@code max_tokens}
 * and corrected when the usage is known (given back in full on failure or cancellation).
 * The request budget is what {@code X-RateLimit-*} report. When the bucket store fails
 * (Redis unreachable), requests pass or fail with 503 as configured; either way it is
 * logged and counted.
 */
public final class RateLimitStage implements ChatStage {

	/** Counter of requests refused by a budget, tagged by budget. */
	public static final String DENIED = "junction.ratelimit.denied";

	/** Counter of bucket store failures, tagged by the decision taken. */
	public static final String STORE_ERRORS = "junction.ratelimit.store.errors";

	private static final Logger logger = LoggerFactory.getLogger(RateLimitStage.class);

	private final RateLimits properties;

	private final BucketStore store;

	private final BucketConfiguration requests;

	private final BucketConfiguration tokens;

	private final MeterRegistry registry;

	public RateLimitStage(RateLimits properties, BucketStore store, MeterRegistry registry) {
		this.properties = properties;
		this.store = store;
		this.registry = registry;
		this.requests = configuration(properties, properties.requests());
		this.tokens = configuration(properties, properties.tokens());
	}

	@Override
	public <T extends ChatOutput> Flux<T> apply(ChatExchange exchange, Attempt attempt, Next<T> next) {
		return reserve(exchange).flatMapMany((reserved) -> {
			if (reserved == 0) {
				return next.apply(exchange, attempt);
			}
			// Tokens given back so far; settled when the usage arrives, before its output
			// is handed on.
			AtomicLong refunded = new AtomicLong(Long.MIN_VALUE);
			return next.apply(exchange, attempt).concatMap((output) -> {
				if (output.usage() == null) {
					return Mono.just(output);
				}
				CompletableFuture<Optional<Void>> settled = settle(exchange, reserved, output.usage(), refunded);
				return settled.isDone() ? Mono.just(output)
						: Mono.fromFuture(settled).onErrorResume((error) -> Mono.empty()).thenReturn(output);
			}).doFinally((signal) -> {
				if (refunded.get() == Long.MIN_VALUE) {
					settle(exchange, reserved, null, refunded);
				}
			});
		});
	}

	/** Takes one request and the token reservation; emits the tokens reserved. */
	private Mono<Long> reserve(ChatExchange exchange) {
		String client = exchange.client();
		long reservation = (this.properties.tokens() > 0) ? tokensFor(exchange) : 0;
		return takeRequest(client, exchange::rateLimit).then(Mono.defer(() -> {
			if (reservation == 0) {
				return Mono.just(0L);
			}
			AtomicBoolean handedOn = new AtomicBoolean();
			CompletableFuture<Optional<ConsumptionProbe>> consumed = guarded(
					this.store.tryConsume(tokenKey(client), this.tokens, reservation));
			return Mono.fromFuture(consumed, true)
				// Cancelled before the store's answer is handed on: give back whatever it
				// takes. Once
				// handed on, the reservation is settled after the call, so it is never
				// given back twice.
				.doOnCancel(() -> {
					if (!handedOn.get()) {
						consumed.thenAccept((result) -> result.filter(ConsumptionProbe::isConsumed)
							.ifPresent(
									(taken) -> guarded(this.store.adjust(tokenKey(client), this.tokens, reservation))));
					}
				})
				.flatMap((tokenResult) -> {
					handedOn.set(true);
					ConsumptionProbe tokenProbe = tokenResult.orElse(null);
					if (tokenProbe != null && !tokenProbe.isConsumed()) {
						return Mono.error(denied("rate_limit_tokens",
								"Not enough tokens left for this key: " + reservation + " requested (from max_tokens), "
										+ tokenProbe.getRemainingTokens() + " left of " + this.properties.tokens()
										+ " per " + this.properties.window().toSeconds() + " s.",
								tokenProbe.getNanosToWaitForRefill()));
					}
					return Mono.just((tokenProbe != null) ? reservation : 0L);
				});
		}));
	}

	/**
	 * Takes one request from {@code client}'s budget, as every request through the
	 * pipeline does, reporting what is left to {@code status}; fails with a denial when
	 * none is left. Calls that do not reach a provider (RPC procedures) are limited with
	 * it too.
	 */
	public Mono<Void> takeRequest(String client, Consumer<ChatExchange.RateLimitStatus> status) {
		return Mono.fromFuture(() -> consumeRequest(client)).flatMap((requestProbe) -> {
			ConsumptionProbe probe = requestProbe.orElse(null);
			if (probe != null) {
				status.accept(new ChatExchange.RateLimitStatus(this.properties.requests(), probe.getRemainingTokens(),
						seconds(probe.getNanosToWaitForReset())));
				if (!probe.isConsumed()) {
					return Mono
						.error(denied("rate_limit_requests",
								"Too many requests for this key: the limit is " + this.properties.requests() + " per "
										+ this.properties.window().toSeconds() + " s.",
								probe.getNanosToWaitForRefill()));
				}
			}
			return Mono.empty();
		});
	}

	private CompletableFuture<Optional<ConsumptionProbe>> consumeRequest(String client) {
		if (this.properties.requests() <= 0) {
			return CompletableFuture.completedFuture(Optional.empty());
		}
		return guarded(this.store.tryConsume("junction:rl:req:" + client, this.requests, 1));
	}

	/**
	 * Gives back what was reserved but not used, or takes what was used beyond it; a
	 * later report of the same call's usage corrects what an earlier one settled.
	 */
	private CompletableFuture<Optional<Void>> settle(ChatExchange exchange, long reserved, Usage usage,
			AtomicLong refunded) {
		long used = (usage != null && !exchange.servedFromCache()) ? usage.totalTokens() : 0;
		long refund = reserved - used;
		long before = refunded.getAndSet(refund);
		long delta = refund - ((before == Long.MIN_VALUE) ? 0 : before);
		if (delta == 0) {
			return CompletableFuture.completedFuture(Optional.empty());
		}
		return guarded(this.store.adjust(tokenKey(exchange.client()), this.tokens, delta));
	}

	private long tokensFor(ChatExchange exchange) {
		Integer maxTokens = exchange.request().maxTokens();
		return (maxTokens != null) ? maxTokens : this.properties.defaultReservation();
	}

	/**
	 * A store call whose failure becomes empty (fail open) or a 503 (fail closed), logged
	 * and counted.
	 */
	private <T> CompletableFuture<Optional<T>> guarded(CompletableFuture<T> call) {
		return call.handle((value, error) -> {
			if (error == null) {
				return CompletableFuture.completedFuture(Optional.ofNullable(value));
			}
			String decision = this.properties.failOpen() ? "allowed" : "denied";
			Counter.builder(STORE_ERRORS)
				.description("Rate-limit store failures, and whether the request was let through")
				.tag("decision", decision)
				.register(this.registry)
				.increment();
			logger.warn("Rate-limit store failed ({}): request {}", error.getMessage(), decision);
			return this.properties.failOpen() ? CompletableFuture.completedFuture(Optional.<T>empty())
					: CompletableFuture.<Optional<T>>failedFuture(DeniedException.unavailable("rate_limit_store",
							"The rate-limit store is unreachable.", Duration.ofSeconds(1)));
		}).thenCompose((future) -> future);
	}

	private DeniedException denied(String budget, String message, long nanosToWait) {
		Counter.builder(DENIED)
			.description("Requests refused by a rate-limit budget")
			.tag("budget", budget)
			.register(this.registry)
			.increment();
		return DeniedException.rateLimited(budget, message, Duration.ofSeconds(seconds(nanosToWait)));
	}

	private static String tokenKey(String client) {
		return "junction:rl:tok:" + client;
	}

	private static long seconds(long nanos) {
		return Math.max(1, (nanos + 999_999_999L) / 1_000_000_000L);
	}

	private static BucketConfiguration configuration(RateLimits limits, long capacity) {
		Duration window = limits.window();
		long size = Math.max(1, capacity);
		if (size > window.toNanos()) {
			throw new IllegalStateException(limits.property() + ": " + size + " per " + window
					+ " refills faster than Bucket4j's limit of one token per nanosecond");
		}
		return BucketConfiguration.builder()
			.addLimit((limit) -> limit.capacity(size).refillGreedy(size, window))
			.build();
	}

}
