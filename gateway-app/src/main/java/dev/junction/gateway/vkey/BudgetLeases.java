package dev.junction.gateway.vkey;

import java.time.LocalDate;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Budget reservations served from blocks of a key's budget this gateway holds ("leases").
 * A block is taken from the {@link KeyStore} with one conditional {@code UPDATE}, bounded
 * by what is left, so gateways sharing a database never hold more than the budget between
 * them; requests reserve from it and settle into it in memory. A block running low is
 * topped up ahead of need; what a request finds missing is taken at once, and concurrent
 * requests wait for one shared take. What was spent is written to the store on
 * {@link #flush}, and what a block holds unused is given back once it has been idle for a
 * while, and on {@link #flush flush(true)} at shutdown.
 */
public final class BudgetLeases {

	private static final Logger logger = LoggerFactory.getLogger(BudgetLeases.class);

	private final KeyStore store;

	private final double fraction;

	private final long floor;

	private final long ceiling;

	private final long idleNanos;

	private final LongSupplier nanoTime;

	private final ConcurrentHashMap<LeaseId, Lease> leases = new ConcurrentHashMap<>();

	private final Runnable errors;

	/**
	 * @param store where blocks are taken from and given back to
	 * @param settings the size of a block and how long an idle one is kept
	 * @param nanoTime the clock idleness is measured with
	 * @param errors counts a write that failed
	 */
	public BudgetLeases(KeyStore store, VirtualKeysProperties.Lease settings, LongSupplier nanoTime, Runnable errors) {
		this.errors = errors;
		this.store = store;
		this.fraction = settings.fraction();
		this.floor = Money.nanos(settings.minUsd());
		this.ceiling = Money.nanos(settings.maxUsd());
		this.idleNanos = settings.idleTimeout().toNanos();
		this.nanoTime = nanoTime;
	}

	/**
	 * Reserves {@code nanos} of {@code key}'s budget of {@code limit} in the period
	 * starting {@code period}; emits nothing when the budget has no room for it.
	 */
	public Mono<Hold> reserve(String key, LocalDate period, long nanos, long limit) {
		return Mono.defer(() -> attempt(new LeaseId(key, period), nanos, limit, false));
	}

	private Mono<Hold> attempt(LeaseId id, long nanos, long limit, boolean afterShortTake) {
		Lease lease = this.leases.computeIfAbsent(id, Lease::new);
		Hold hold = null;
		CompletableFuture<Boolean> take = null;
		boolean started = false;
		long block = blockSize(limit, nanos);
		long want = block;
		long need = block;
		synchronized (lease) {
			if (lease.retired) {
				return Mono.defer(() -> attempt(id, nanos, limit, afterShortTake));
			}
			lease.lastUsed = this.nanoTime.getAsLong();
			if (lease.limit != limit) {
				boolean changed = lease.limit != 0;
				lease.limit = limit;
				if (changed) {
					// The budget changed: what the block holds unused goes back, and is
					// taken again under the new limit.
					return lease.write(lease.lastUsed, true).then(Mono.defer(() -> attempt(id, nanos, limit, false)));
				}
			}
			if (lease.available() >= nanos) {
				hold = lease.take(nanos);
				// Ahead of need, a block only while another would be left, so the end of
				// a budget
				// goes to whichever gateway needs it.
				if (lease.take == null && !lease.topUpRefused && lease.available() < block / 2) {
					take = new CompletableFuture<>();
					lease.take = take;
					started = true;
					need = 2 * block;
				}
			}
			else if (afterShortTake) {
				return Mono.empty();
			}
			else {
				take = lease.take;
				need = nanos - lease.available();
				want = Math.max(block, need);
				if (take == null) {
					take = new CompletableFuture<>();
					lease.take = take;
					started = true;
				}
			}
		}
		if (started) {
			takeBlock(lease, want, need, limit, take, hold != null);
		}
		if (hold != null) {
			return Mono.just(hold);
		}
		return Mono.fromFuture(take, true).flatMap((shortTake) -> attempt(id, nanos, limit, shortTake));
	}

	/**
	 * Takes a block from the store; completes {@code done} with whether it was short of
	 * {@code want}.
	 */
	private void takeBlock(Lease lease, long want, long need, long limit, CompletableFuture<Boolean> done,
			boolean ahead) {
		this.store.lease(lease.id.key(), lease.id.period(), want, need, limit)
			.defaultIfEmpty(new long[] { 0, -1 })
			.subscribe((granted) -> {
				boolean shortTake = granted[0] < want;
				synchronized (lease) {
					lease.held += granted[0];
					if (granted[1] >= 0) {
						lease.storeUsed = granted[1];
					}
					lease.take = null;
					lease.topUpRefused = ahead && shortTake;
				}
				done.complete(!ahead && shortTake);
			}, (error) -> {
				synchronized (lease) {
					lease.take = null;
				}
				done.completeExceptionally(error);
			});
	}

	/**
	 * A block: a fraction of the budget within the floor and ceiling, and at least one
	 * request's reservation.
	 */
	private long blockSize(long limit, long nanos) {
		long share = (long) (limit * this.fraction);
		return Math.max(nanos, Math.min(this.ceiling, Math.max(this.floor, share)));
	}

	/**
	 * Writes what was spent from every block to the store, and gives back what blocks
	 * idle for longer than the idle timeout (every block with {@code everything}) hold
	 * unused, leaving the reservations of requests under way. A write that fails is tried
	 * again on the next flush.
	 */
	public Mono<Void> flush(boolean everything) {
		return Flux.fromIterable(this.leases.values())
			.flatMap((lease) -> lease.write(this.nanoTime.getAsLong(), everything), 8)
			.then();
	}

	/**
	 * What {@code key} spent and holds reserved in the period starting {@code start}, as
	 * [spent, reserved], after this gateway's spend is written; blocks other gateways
	 * hold count as reserved.
	 */
	public Mono<long[]> state(String key, LocalDate start) {
		Lease lease = this.leases.get(new LeaseId(key, start));
		Mono<Void> written = (lease != null) ? lease.write(this.nanoTime.getAsLong(), false) : Mono.empty();
		return written.then(this.store.budgetState(key, start)).map((state) -> {
			long unused = 0;
			if (lease != null) {
				synchronized (lease) {
					unused = Math.max(0, lease.available() + lease.returning);
				}
			}
			return new long[] { state[0], Math.max(0, state[1] - unused) };
		});
	}

	private record LeaseId(String key, LocalDate period) {
	}

	/**
	 * One key's block in one period. Guarded by its own monitor, held only for
	 * arithmetic.
	 */
	private final class Lease {

		final LeaseId id;

		/** Nano-dollars this gateway holds reserved in the store. */
		long held;

		/** Of those, reserved by requests not yet settled. */
		long inFlight;

		/** Spent by settled requests and not yet written. */
		long unwritten;

		/** Spent and being written now. */
		long writing;

		/** Being given back now. */
		long returning;

		/** Spent and reserved in the store as the last write here read it. */
		long storeUsed;

		long lastUsed;

		/** The budget the block was last used under. */
		long limit;

		boolean topUpRefused;

		boolean retired;

		/** The take from the store under way, or null. */
		CompletableFuture<Boolean> take;

		/** The write to the store under way, or null. */
		CompletableFuture<Void> writes;

		Lease(LeaseId id) {
			this.id = id;
		}

		long available() {
			return this.held - this.inFlight - this.unwritten - this.writing - this.returning;
		}

		Hold take(long nanos) {
			this.inFlight += nanos;
			return new Hold(this, nanos, this.storeUsed - available());
		}

		/**
		 * Writes what was spent, and gives back what is unused when idle (at once with
		 * {@code everything}), after any write of this lease under way; a failed write is
		 * kept for the next.
		 */
		Mono<Void> write(long now, boolean everything) {
			return Mono.defer(() -> {
				long spent;
				long release;
				long giveBack;
				CompletableFuture<Void> done;
				synchronized (this) {
					if (this.writes != null) {
						return Mono.fromFuture(this.writes, true).then(write(now, everything));
					}
					boolean idle = everything || (this.inFlight == 0 && this.take == null
							&& now - this.lastUsed >= BudgetLeases.this.idleNanos);
					spent = this.unwritten;
					// Spent beyond what is held (a request that cost more than it
					// reserved) stays spent.
					release = Math.max(0, Math.min(spent, this.held - this.inFlight));
					giveBack = idle ? Math.max(0, available()) : 0;
					if (spent == 0 && giveBack == 0) {
						if (idle && this.held == 0 && this.inFlight == 0 && this.take == null) {
							this.retired = true;
							BudgetLeases.this.leases.remove(this.id, this);
						}
						return Mono.empty();
					}
					this.unwritten = 0;
					this.writing = spent;
					this.returning = giveBack;
					done = new CompletableFuture<>();
					this.writes = done;
				}
				return BudgetLeases.this.store.settleBudget(this.id.key(), this.id.period(), release + giveBack, spent)
					.doOnSuccess((ignored) -> {
						synchronized (this) {
							this.held -= release + giveBack;
							this.storeUsed += spent - release - giveBack;
							if (giveBack > 0) {
								this.topUpRefused = false;
							}
						}
					})
					.onErrorResume((error) -> {
						synchronized (this) {
							this.unwritten += spent;
						}
						BudgetLeases.this.errors.run();
						logger.warn("Could not write the budget of key {}, will try again: {}", this.id.key(),
								error.getMessage());
						return Mono.empty();
					})
					.doFinally((signal) -> {
						synchronized (this) {
							this.writing = 0;
							this.returning = 0;
							this.writes = null;
						}
						done.complete(null);
					});
			});
		}

	}

	/** One request's reservation in a block, settled once its cost is known. */
	public static final class Hold {

		private final Lease lease;

		private final long nanos;

		private final long usedNanos;

		private boolean settled;

		private long charged;

		private Hold(Lease lease, long nanos, long usedNanos) {
			this.lease = lease;
			this.nanos = nanos;
			this.usedNanos = usedNanos;
		}

		/**
		 * Spent and reserved in the period as this gateway knows it, this reservation
		 * included.
		 */
		public long usedNanos() {
			return this.usedNanos;
		}

		/**
		 * Replaces the reservation with what the request cost; called again with a new
		 * cost, charges the difference.
		 */
		public void settle(long cost) {
			synchronized (this.lease) {
				if (!this.settled) {
					this.settled = true;
					this.lease.inFlight -= this.nanos;
				}
				this.lease.unwritten += cost - this.charged;
				this.charged = cost;
			}
		}

		/** Gives the reservation back unless it was settled. */
		public void release() {
			synchronized (this.lease) {
				if (!this.settled) {
					this.settled = true;
					this.lease.inFlight -= this.nanos;
				}
			}
		}

	}

}
