package dev.junction.gateway.vkey;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import dev.junction.gateway.cost.Price;
import dev.junction.gateway.cost.PriceTable;
import dev.junction.gateway.error.DeniedException;
import dev.junction.gateway.pipeline.Attempt;
import dev.junction.gateway.pipeline.ChatExchange;
import dev.junction.gateway.pipeline.ChatStage;
import dev.junction.gateway.provider.ChatOutput;
import dev.junction.gateway.provider.ChatRequest;
import dev.junction.gateway.provider.NativeRequest;
import dev.junction.gateway.provider.Usage;
import dev.junction.gateway.ratelimit.BucketStore;
import dev.junction.gateway.ratelimit.RateLimitStage;
import dev.junction.gateway.routing.Route;
import dev.junction.gateway.routing.Target;
import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.ConsumptionProbe;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.SignalType;
import tools.jackson.databind.JsonNode;

/**
 * Prices every request from the usage its provider reported, at the model that answered
 * (a fallback's own price), and for a virtual key enforces what the key may do: its
 * models, its own request and token limits, and its budget. The budget is reserved before
 * the call from {@code max_tokens} and the request's size at the route's dearest price,
 * and settled from the real usage after it; a stream the client cancels before its usage
 * arrives is charged for its prompt and the chunks it received. Runs after routing, once
 * per request, so retries and fallbacks below it are charged once. A call with the
 * caller's own provider key is priced and recorded as paid by the caller, not debited
 * from the budget; counting tokens is not charged.
 */
public final class SpendStage implements ChatStage {

	private static final Logger logger = LoggerFactory.getLogger(SpendStage.class);

	private static final Duration MINUTE = Duration.ofMinutes(1);

	private final @Nullable KeyService keys;

	private final PriceTable prices;

	private final SpendMetrics metrics;

	private final BucketStore buckets;

	private final long defaultMaxTokens;

	private final ConcurrentHashMap<Long, BucketConfiguration> perMinute = new ConcurrentHashMap<>();

	private final MeterRegistry registry;

	public SpendStage(@Nullable KeyService keys, PriceTable prices, SpendMetrics metrics, BucketStore buckets,
			long defaultMaxTokens, MeterRegistry registry) {
		this.keys = keys;
		this.registry = registry;
		this.prices = prices;
		this.metrics = metrics;
		this.buckets = buckets;
		this.defaultMaxTokens = defaultMaxTokens;
	}

	@Override
	public <T extends ChatOutput> Flux<T> apply(ChatExchange exchange, Attempt attempt, Next<T> next) {
		String id = (this.keys != null) ? KeyService.idOf(exchange.client()) : null;
		if (id == null) {
			return metered(exchange, null, Reservation.NONE, next.apply(exchange, attempt));
		}
		KeyService keys = this.keys;
		return keys.admit(id, exchange.request().model()).flatMapMany((key) -> {
			Instant now = keys.now();
			if (!debitsBudget(exchange)) {
				return takeRequest(key)
					.thenMany(metered(exchange, key, Reservation.NONE, next.apply(exchange, attempt)));
			}
			long promptTokens = promptEstimate(exchange);
			long maxTokens = (exchange.request().maxTokens() != null) ? exchange.request().maxTokens()
					: this.defaultMaxTokens;
			return takeRequest(key).then(reserve(exchange, key, now, promptTokens, maxTokens))
				.flatMapMany((reservation) -> metered(exchange, key, reservation, next.apply(exchange, attempt)));
		});
	}

	/**
	 * Whether the request is paid from the key's budget: not one the caller pays the
	 * provider for with its own key, nor one the provider does not charge for (token
	 * counting). Those reserve nothing from the budget or the token limit.
	 */
	private static boolean debitsBudget(ChatExchange exchange) {
		NativeRequest original = exchange.request().original();
		return exchange.callerKey() == null && (original == null || original.api().billed());
	}

	/**
	 * The call, watched for its usage: the budget and token reservations are settled when
	 * the usage arrives, before the output that carries it is handed on, and the request
	 * is charged once when it ends however it ends.
	 */
	private <T extends ChatOutput> Flux<T> metered(ChatExchange exchange, @Nullable VirtualKey key,
			Reservation reservation, Flux<T> call) {
		Charge charge = new Charge();
		return call.concatMap((output) -> {
			Usage reported = output.usage();
			if (reported == null || reported == Usage.NONE) {
				charge.chunks.incrementAndGet();
				return Mono.just(output);
			}
			CompletableFuture<Void> settled = settle(exchange, key, reservation, charge, reported);
			return settled.isDone() ? Mono.just(output)
					: Mono.fromFuture(settled).onErrorResume((error) -> Mono.empty()).thenReturn(output);
		}).doFinally((signal) -> finish(exchange, key, reservation, charge, signal));
	}

	/**
	 * Charges {@code usage} (replacing what an earlier report of the same call charged);
	 * null charges nothing.
	 */
	private CompletableFuture<Void> settle(ChatExchange exchange, @Nullable VirtualKey key, Reservation reservation,
			Charge charge, @Nullable Usage usage) {
		Target target = exchange.target();
		boolean charged = usage != null && target != null && !exchange.servedFromCache();
		long cost = charged ? this.prices.priceOf(target.toString()).nanos(usage) : 0;
		if (charged) {
			exchange.costNanos(cost);
		}
		if (key == null) {
			synchronized (charge) {
				charge.usage = usage;
				charge.cost = cost;
			}
			return CompletableFuture.completedFuture(null);
		}
		long tokens;
		synchronized (charge) {
			if (reservation.hold() != null) {
				reservation.hold().settle(cost);
			}
			if (charged) {
				Usage before = (charge.usage != null) ? charge.usage : Usage.NONE;
				this.keys.spend()
					.add(key.id(), LocalDate.now(ZoneOffset.UTC), target.toString(), cost - charge.cost,
							usage.promptTokens() - before.promptTokens(),
							usage.completionTokens() - before.completionTokens(), (charge.usage == null) ? 1 : 0,
							exchange.callerKey() != null);
				charge.usage = usage;
				charge.cost = cost;
			}
			long refund = reservation.tokens() - (charged ? usage.totalTokens() : 0);
			tokens = refund - charge.refunded;
			charge.refunded = refund;
			charge.settled = true;
		}
		if (reservation.tokens() == 0 || tokens == 0) {
			return CompletableFuture.completedFuture(null);
		}
		return this.buckets.adjust(tokenBucket(key), perMinute(key.tokensPerMinute()), tokens);
	}

	/** Settles a call that ended without usage, and counts what it cost. */
	private void finish(ChatExchange exchange, @Nullable VirtualKey key, Reservation reservation, Charge charge,
			SignalType signal) {
		boolean settled;
		synchronized (charge) {
			settled = charge.settled || charge.usage != null;
		}
		if (!settled) {
			Usage usage = null;
			if (signal == SignalType.CANCEL && exchange.target() != null && exchange.upstreamNanos() > 0) {
				// Cancelled before the provider reported usage: what it read, and a token
				// per chunk received.
				usage = new Usage(reservation.promptTokens(), charge.chunks.get());
			}
			settle(exchange, key, reservation, charge, usage).exceptionally((error) -> {
				logger.warn("Could not give back the token reservation of key {}: {}", key.id(), error.getMessage());
				return null;
			});
		}
		Target target = exchange.target();
		Usage usage;
		long cost;
		synchronized (charge) {
			usage = charge.usage;
			cost = charge.cost;
		}
		if (usage != null && target != null && !exchange.servedFromCache()) {
			this.metrics.record((key != null) ? key.id() : null, target, usage, cost);
		}
	}

	private Mono<Void> takeRequest(VirtualKey key) {
		Long limit = key.requestsPerMinute();
		if (limit == null || limit <= 0) {
			return Mono.empty();
		}
		return Mono
			.fromFuture(() -> this.buckets.tryConsume("junction:vk:req:" + key.id() + ":" + limit, perMinute(limit), 1))
			.flatMap((probe) -> probe.isConsumed() ? Mono.empty()
					: Mono.error(denied("rate_limit_requests",
							DeniedException.rateLimited("rate_limit_requests",
									"Too many requests for this key: " + "the limit is " + limit + " per minute.",
									wait(probe)))));
	}

	/** Takes the key's token reservation, then its budget reservation. */
	private Mono<Reservation> reserve(ChatExchange exchange, VirtualKey key, Instant now, long promptTokens,
			long maxTokens) {
		Long tokenLimit = key.tokensPerMinute();
		long tokens = (tokenLimit != null && tokenLimit > 0) ? promptTokens + maxTokens : 0;
		Mono<Long> tokenReservation = (tokens == 0) ? Mono.just(0L)
				: Mono.fromFuture(() -> this.buckets.tryConsume(tokenBucket(key), perMinute(tokenLimit), tokens))
					.flatMap((probe) -> probe.isConsumed() ? Mono.just(tokens)
							: Mono.error(denied("rate_limit_tokens", DeniedException.rateLimited("rate_limit_tokens",
									"Not enough tokens left for this key: " + tokens + " requested, "
											+ probe.getRemainingTokens() + " left of " + tokenLimit + " per minute.",
									wait(probe)))));
		Budget budget = key.budget();
		if (budget == null) {
			return tokenReservation.map((taken) -> new Reservation(null, taken, promptTokens));
		}
		long nanos = ceiling(exchange.route(), promptTokens, maxTokens);
		LocalDate period = budget.period().start(now);
		Instant end = budget.period().end(now);
		return tokenReservation.flatMap((taken) -> {
			AtomicBoolean handedOn = new AtomicBoolean();
			CompletableFuture<Optional<BudgetLeases.Hold>> reserved = this.keys.budgets()
				.reserve(key.id(), period, nanos, budget.nanos())
				.map(Optional::of)
				.defaultIfEmpty(Optional.empty())
				.toFuture();
			return Mono.fromFuture(reserved, true)
				// Cancelled before the reservation was made: give back whatever it takes.
				.doOnCancel(() -> {
					if (!handedOn.get()) {
						reserved.thenAccept((hold) -> hold.ifPresent(BudgetLeases.Hold::release));
						if (taken > 0) {
							this.buckets.adjust(tokenBucket(key), perMinute(tokenLimit), taken);
						}
					}
				})
				.flatMap((hold) -> {
					handedOn.set(true);
					if (hold.isEmpty()) {
						if (taken > 0) {
							this.buckets.adjust(tokenBucket(key), perMinute(tokenLimit), taken);
						}
						denied("budget_exceeded");
						return Mono.error(DeniedException.overBudget(
								"This key's " + budget.period().id() + " budget of $"
										+ Money.decimal(budget.nanos()).toPlainString() + " does not leave $"
										+ Money.decimal(nanos).toPlainString()
										+ " for this request (its prompt and max_tokens at the model's price).",
								(end != null) ? Duration.between(now, end) : null));
					}
					exchange.budget(new ChatExchange.BudgetStatus(budget.nanos(), hold.get().usedNanos(), nanos,
							(end != null) ? Math.max(0, Duration.between(now, end).toSeconds()) : -1));
					return Mono.just(new Reservation(hold.get(), taken, promptTokens));
				});
		});
	}

	/**
	 * What a request may cost at most: its prompt and max_tokens at the dearest price on
	 * its route.
	 */
	private long ceiling(@Nullable Route route, long promptTokens, long maxTokens) {
		if (route == null) {
			return 0;
		}
		long ceiling = 0;
		for (Target target : route.targets()) {
			Price price = this.prices.priceOf(target.toString());
			ceiling = Math.max(ceiling, price.ceilingNanos(promptTokens, maxTokens));
		}
		return ceiling;
	}

	/**
	 * Tokens the prompt may take: its JSON bytes over three, which no tokenizer undercuts
	 * for text; the messages of a chat request, the whole of one with no chat form
	 * (embeddings).
	 */
	private static long promptEstimate(ChatExchange exchange) {
		ChatRequest request = exchange.request();
		NativeRequest original = request.original();
		JsonNode prompt = (!request.hasChatForm() && original != null) ? original.body()
				: request.body().path("messages");
		return prompt.toString().length() / 3 + 1;
	}

	private static String tokenBucket(VirtualKey key) {
		return "junction:vk:tok:" + key.id() + ":" + key.tokensPerMinute();
	}

	private BucketConfiguration perMinute(long limit) {
		return this.perMinute.computeIfAbsent(limit,
				(capacity) -> BucketConfiguration.builder()
					.addLimit((bandwidth) -> bandwidth.capacity(capacity).refillGreedy(capacity, MINUTE))
					.build());
	}

	/** Counts a refusal with the rate limits' counter, tagged by what refused it. */
	private void denied(String budget) {
		Counter.builder(RateLimitStage.DENIED)
			.description("Requests refused by a rate-limit budget")
			.tag("budget", budget)
			.register(this.registry)
			.increment();
	}

	private <E extends Throwable> E denied(String budget, E error) {
		denied(budget);
		return error;
	}

	private static Duration wait(ConsumptionProbe probe) {
		return Duration.ofSeconds(Math.max(1, (probe.getNanosToWaitForRefill() + 999_999_999L) / 1_000_000_000L));
	}

	/**
	 * What a request holds until it is settled.
	 *
	 * @param hold its budget reservation, null without a budget
	 * @param tokens tokens reserved from the key's token limit
	 * @param promptTokens the estimate of its prompt's tokens
	 */
	private record Reservation(BudgetLeases.@Nullable Hold hold, long tokens, long promptTokens) {

		static final Reservation NONE = new Reservation(null, 0, 0);

	}

	/** What a call has been charged so far. Guarded by its own monitor. */
	private static final class Charge {

		final AtomicLong chunks = new AtomicLong();

		@Nullable Usage usage;

		long cost;

		long refunded;

		boolean settled;

	}

}
