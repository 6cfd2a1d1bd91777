package dev.junction.gateway.provider;

import java.time.Duration;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import dev.junction.gateway.error.DeniedException;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.MonoSink;
import reactor.core.scheduler.Schedulers;

/**
 * A provider's concurrency limit without blocking: at most {@code concurrency} calls in
 * flight upstream, up to {@code queueSize} more waiting (at most {@code maxQueueWait})
 * for a permit in arrival order. With {@code dropExcess}, a request finding the queue
 * full fails at once with 503 and Retry-After; without it, it waits anyway.
 */
public final class ProviderLimiter implements MeterBinder {

	/** Timer of the wait for a permit, tagged by provider. */
	public static final String QUEUE_WAIT = "junction.provider.queue.wait";

	/** Gauge of the calls holding a permit, tagged by provider. */
	public static final String IN_FLIGHT = "junction.provider.in.flight";

	/** Gauge of the requests waiting for a permit, tagged by provider. */
	public static final String WAITING = "junction.provider.queue.waiting";

	private final String provider;

	private final int concurrency;

	private final int queueSize;

	private final Duration maxQueueWait;

	private final boolean dropExcess;

	private final AtomicInteger inFlight = new AtomicInteger();

	private final AtomicInteger waiting = new AtomicInteger();

	private final Queue<Waiter> queue = new ConcurrentLinkedQueue<>();

	private volatile @Nullable Timer queueWait;

	public ProviderLimiter(String provider, int concurrency, int queueSize, Duration maxQueueWait, boolean dropExcess) {
		if (concurrency < 1 || queueSize < 0) {
			throw new IllegalStateException("junction.gateway.providers." + provider
					+ ": concurrency must be at least 1 and queue-size at least 0");
		}
		this.provider = provider;
		this.concurrency = concurrency;
		this.queueSize = queueSize;
		this.maxQueueWait = maxQueueWait;
		this.dropExcess = dropExcess;
	}

	/** Registers the queue-wait timer and the gauges of calls in flight and waiting. */
	@Override
	public void bindTo(MeterRegistry registry) {
		this.queueWait = Timer.builder(QUEUE_WAIT)
			.description("Time a request waited for a provider permit")
			.tag("provider", this.provider)
			.register(registry);
		Gauge.builder(IN_FLIGHT, this, ProviderLimiter::inFlight)
			.description("Calls to the provider holding a concurrency permit")
			.tag("provider", this.provider)
			.register(registry);
		Gauge.builder(WAITING, this, ProviderLimiter::waiting)
			.description("Requests waiting for a provider concurrency permit")
			.tag("provider", this.provider)
			.register(registry);
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
			long start = System.nanoTime();
			if (tryAcquire()) {
				record(start);
				Permit permit = new Permit(this);
				sink.onCancel(permit::release);
				sink.success(permit);
				return;
			}
			if (this.dropExcess && this.waiting.get() >= this.queueSize) {
				sink.error(DeniedException.unavailable("provider_queue", "Provider '" + this.provider
						+ "' is at its concurrency limit (" + this.concurrency + ") and its queue is full.",
						Duration.ofSeconds(1)));
				return;
			}
			Waiter waiter = new Waiter(sink, start, new Permit(this));
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
					sink.error(DeniedException.unavailable("provider_queue", "Provider '" + this.provider
							+ "' had no free permit within " + this.maxQueueWait.toMillis() + " ms.",
							Duration.ofSeconds(1)));
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
			record(waiter.since);
			waiter.sink.success(waiter.permit);
		}
	}

	private void record(long start) {
		Timer timer = this.queueWait;
		if (timer != null) {
			timer.record(Duration.ofNanos(System.nanoTime() - start));
		}
	}

	/** The right to one upstream call. */
	public static final class Permit {

		private final ProviderLimiter limiter;

		private final AtomicBoolean released = new AtomicBoolean();

		private Permit(ProviderLimiter limiter) {
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
