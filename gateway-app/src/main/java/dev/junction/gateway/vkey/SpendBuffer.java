package dev.junction.gateway.vkey;

import java.time.LocalDate;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Spend per key, day and model, added up in memory and written to the {@link KeyStore}
 * behind the requests: one increment per row on {@link #flush}. A row whose write fails
 * is added back and written with the next flush. Flushes run one at a time, so a read
 * after {@link #flush} sees everything recorded before it.
 */
public final class SpendBuffer {

	private static final Logger logger = LoggerFactory.getLogger(SpendBuffer.class);

	private final KeyStore store;

	private final Runnable errors;

	private final ConcurrentHashMap<Row, Totals> pending = new ConcurrentHashMap<>();

	private CompletableFuture<Void> flushing = CompletableFuture.completedFuture(null);

	/**
	 * @param store where spend is written
	 * @param errors counts a write that failed
	 */
	public SpendBuffer(KeyStore store, Runnable errors) {
		this.store = store;
		this.errors = errors;
	}

	/**
	 * Adds to a key's spend on a day and model; the cost of a request the caller paid the
	 * provider for with its own key ({@code callerPaid}) is kept apart.
	 */
	public void add(String key, LocalDate day, String model, long cost, long promptTokens, long completionTokens,
			long requests, boolean callerPaid) {
		Totals totals = callerPaid ? new Totals(0, cost, promptTokens, completionTokens, requests)
				: new Totals(cost, 0, promptTokens, completionTokens, requests);
		this.pending.merge(new Row(key, day, model), totals, Totals::plus);
	}

	/** Writes everything added so far, after any flush under way. */
	public Mono<Void> flush() {
		CompletableFuture<Void> next;
		synchronized (this) {
			next = this.flushing.handle((ignored, error) -> null).thenCompose((ignored) -> write().toFuture());
			this.flushing = next;
		}
		return Mono.fromFuture(next, true);
	}

	private Mono<Void> write() {
		return Flux.fromIterable(this.pending.keySet()).flatMap((row) -> {
			Totals totals = this.pending.remove(row);
			if (totals == null) {
				return Mono.empty();
			}
			return this.store
				.recordSpend(row.key(), row.day(), row.model(), totals.cost(), totals.byokCost(), totals.promptTokens(),
						totals.completionTokens(), totals.requests())
				.onErrorResume((error) -> {
					this.pending.merge(row, totals, Totals::plus);
					this.errors.run();
					logger.warn("Could not write the spend of key {}, will try again: {}", row.key(),
							error.getMessage());
					return Mono.empty();
				});
		}, 8).then();
	}

	/**
	 * A key's spend per day and model between two days, both included, with everything
	 * added here.
	 */
	public Flux<KeyStore.SpendRow> spend(String key, LocalDate from, LocalDate to) {
		return flush().thenMany(this.store.spend(key, from, to));
	}

	private record Row(String key, LocalDate day, String model) {
	}

	private record Totals(long cost, long byokCost, long promptTokens, long completionTokens, long requests) {

		Totals plus(Totals other) {
			return new Totals(this.cost + other.cost, this.byokCost + other.byokCost,
					this.promptTokens + other.promptTokens, this.completionTokens + other.completionTokens,
					this.requests + other.requests);
		}

	}

}
