package dev.junction.gateway.limit;

import java.time.Duration;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.MonoSink;
import reactor.core.scheduler.Schedulers;

/**
 * A concurrency limit without blocking: at most {@code concurrency} calls at once, up to
 * {@code queueSize} more waiting (at most {@code maxQueueWait}) for a permit in arrival
 * order. A subclass may move the limit while calls are in progress: lowered, it lets no
 * call in until fewer are in progress than the new limit; raised, it lets waiters in.
 * With {@code dropExcess}, a call finding the queue full fails at once with the
 * {@code queueFull} error; without it, it waits anyway. A call that waited its longest
 * fails with the {@code waitedTooLong} error.
 */
public class ConcurrencyLimiter {

	private volatile int concurrency;

	private final int queueSize;

	private final Duration maxQueueWait;

	private final boolean dropExcess;

	private final Supplier<? extends Throwable> queueFull;

	private final Supplier<? extends Throwable> waitedTooLong;

	private final AtomicInteger inFlight = new AtomicInteger();

	private final AtomicInteger waiting = new AtomicInteger();

	private final Queue<Waiter> queue = new ConcurrentLinkedQueue<>();

	public ConcurrencyLimiter(int concurrency, int queueSize, Duration maxQueueWait, boolean dropExcess,
			Supplier<? extends Throwable> queueFull, Supplier<? extends Throwable> waitedTooLong) {
		if (concurrency < 1 || queueSize < 0) {
			throw new IllegalArgumentException("concurrency must be at least 1 and the queue size at least 0");
		}
		this.concurrency = concurrency;
		this.queueSize = queueSize;
		this.maxQueueWait = maxQueueWait;
		this.dropExcess = dropExcess;
		this.queueFull = queueFull;
		this.waitedTooLong = waitedTooLong;
	}

	/**
	 * A permit, to be released exactly once; cancelled waiters leave the queue. A permit
	 * is taken when the caller subscribes but reaches it only when it asks, so whatever
	 * stands between the two (the caller going away, the wait ending) is decided once: a
	 * waiter's state says whether it was granted, cancelled or timed out, and a cancel
	 * that comes before the permit reached the caller gives the permit back rather than
	 * losing it.
	 */
	public Mono<Permit> acquire() {
		return Mono.create((sink) -> {
			if (tryAcquire()) {
				waited(0);
				Permit permit = new Permit(this);
				sink.onCancel(permit::release);
				sink.success(permit);
				return;
			}
			if (noPlaceToWait()) {
				sink.error(this.queueFull.get());
				return;
			}
			Waiter waiter = new Waiter(sink, System.nanoTime(), new Permit(this));
			this.waiting.incrementAndGet();
			this.queue.add(waiter);
			sink.onCancel(() -> {
				if (waiter.state.compareAndSet(Waiter.WAITING, Waiter.CANCELLED)) {
					leave(waiter);
				}
				else if (waiter.state.get() == Waiter.GRANTED) {
					// Granted as the caller went away: the permit never reaches it.
					waiter.permit.release();
				}
			});
			sink.onDispose(Schedulers.parallel().schedule(() -> {
				if (waiter.state.compareAndSet(Waiter.WAITING, Waiter.CANCELLED)) {
					leave(waiter);
					sink.error(this.waitedTooLong.get());
				}
			}, this.maxQueueWait.toNanos(), TimeUnit.NANOSECONDS));
			drain();
		});
	}

	private void leave(Waiter waiter) {
		this.waiting.decrementAndGet();
		this.queue.remove(waiter);
	}

	/**
	 * {@code call} made holding a permit, which goes back however the call ends: done,
	 * failed, or given up by its subscriber at any point, before or after the permit
	 * arrived. (Reactor's {@code usingWhen} can miss the cancel of a subscriber that goes
	 * away just as the resource arrives, and with it the release.)
	 */
	public <T> Flux<T> withPermit(Supplier<? extends Publisher<T>> call) {
		return acquire().flatMapMany((permit) -> Flux.defer(call).doFinally((signal) -> permit.release()));
	}

	public int inFlight() {
		return this.inFlight.get();
	}

	/**
	 * Whether a call made now would fail at once with the {@code queueFull} error: no
	 * permit free and, with {@code dropExcess}, no place in the queue. Nothing is taken.
	 */
	public boolean full() {
		return this.inFlight.get() >= this.concurrency && noPlaceToWait();
	}

	private boolean noPlaceToWait() {
		return this.dropExcess && this.waiting.get() >= this.queueSize;
	}

	/** The calls allowed at once. */
	public int concurrency() {
		return this.concurrency;
	}

	/** Allows {@code concurrency} (at least 1) calls at once from now on. */
	protected void concurrency(int concurrency) {
		if (concurrency < 1) {
			throw new IllegalArgumentException("concurrency must be at least 1");
		}
		int before = this.concurrency;
		this.concurrency = concurrency;
		if (concurrency > before) {
			drain();
		}
	}

	public int waiting() {
		return this.waiting.get();
	}

	private boolean tryAcquire() {
		int current;
		do {
			current = this.inFlight.get();
			if (current >= this.concurrency) {
				return false;
			}
		}
		while (!this.inFlight.compareAndSet(current, current + 1));
		return true;
	}

	private void release() {
		this.inFlight.decrementAndGet();
		drain();
	}

	/** Hands free permits to waiters in arrival order. */
	private void drain() {
		while (!this.queue.isEmpty() && tryAcquire()) {
			Waiter waiter = this.queue.poll();
			if (waiter == null || !waiter.state.compareAndSet(Waiter.WAITING, Waiter.GRANTED)) {
				this.inFlight.decrementAndGet();
				continue;
			}
			this.waiting.decrementAndGet();
			waited(System.nanoTime() - waiter.since);
			waiter.sink.success(waiter.permit);
		}
	}

	/**
	 * Called with how long each call that got a permit waited for it, in nanoseconds (0
	 * for none): for a subclass's metrics.
	 */
	protected void waited(long nanos) {
	}

	/** The right to one call. */
	public static final class Permit {

		private final ConcurrencyLimiter limiter;

		private final AtomicBoolean released = new AtomicBoolean();

		private Permit(ConcurrencyLimiter limiter) {
			this.limiter = limiter;
		}

		public void release() {
			if (this.released.compareAndSet(false, true)) {
				this.limiter.release();
			}
		}

	}

	private static final class Waiter {

		static final int WAITING = 0;

		static final int GRANTED = 1;

		static final int CANCELLED = 2;

		final MonoSink<Permit> sink;

		final long since;

		/** The permit this waiter gets once granted. */
		final Permit permit;

		final AtomicInteger state = new AtomicInteger(WAITING);

		Waiter(MonoSink<Permit> sink, long since, Permit permit) {
			this.sink = sink;
			this.since = since;
			this.permit = permit;
		}

	}

}
