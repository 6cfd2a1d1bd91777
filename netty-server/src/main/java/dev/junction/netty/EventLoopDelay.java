package dev.junction.netty;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.EventExecutorGroup;

/**
 * How late the event loops of a group run what is due: a probe on every loop schedules
 * itself every {@code interval} and notes how much later than due it ran. A loop given
 * more work than it can do runs its probe late by about as long as the requests it reads
 * have waited, so the delay is the queueing a new request meets there. A loop's delay is
 * the least of its last {@value #RUNS} probes: a single late run (a collector's pause,
 * the first requests' class loading) is not a backlog.
 */
public final class EventLoopDelay implements AutoCloseable {

	/** Probe runs a loop's delay is the least of. */
	static final int RUNS = 3;

	private final List<Probe> probes = new ArrayList<>();

	private final long intervalNanos;

	private volatile boolean closed;

	public EventLoopDelay(EventExecutorGroup loops, Duration interval) {
		this.intervalNanos = interval.toNanos();
		if (this.intervalNanos <= 0) {
			throw new IllegalArgumentException("interval must be positive: " + interval);
		}
		for (EventExecutor loop : loops) {
			Probe probe = new Probe(loop);
			this.probes.add(probe);
			probe.schedule();
		}
	}

	/**
	 * The delay of the loop the calling thread runs, in nanoseconds; off every probed
	 * loop, the largest of them.
	 */
	public long currentNanos() {
		long largest = 0;
		for (Probe probe : this.probes) {
			long delay = probe.delay();
			if (probe.loop.inEventLoop()) {
				return delay;
			}
			largest = Math.max(largest, delay);
		}
		return largest;
	}

	/** The largest delay of the probed loops, in nanoseconds. */
	public long largestNanos() {
		long largest = 0;
		for (Probe probe : this.probes) {
			largest = Math.max(largest, probe.delay());
		}
		return largest;
	}

	/** Stops the probes; the loops go on. */
	@Override
	public void close() {
		this.closed = true;
		for (Probe probe : this.probes) {
			Future<?> next = probe.next;
			if (next != null) {
				next.cancel(false);
			}
		}
	}

	private final class Probe implements Runnable {

		private final EventExecutor loop;

		/** The delays of the last runs, written on the loop only. */
		private final long[] delays = new long[RUNS];

		private int run;

		private volatile long dueAt;

		private volatile long delay;

		private volatile Future<?> next;

		Probe(EventExecutor loop) {
			this.loop = loop;
		}

		void schedule() {
			if (EventLoopDelay.this.closed || this.loop.isShuttingDown()) {
				return;
			}
			this.dueAt = System.nanoTime() + EventLoopDelay.this.intervalNanos;
			try {
				this.next = this.loop.schedule(this, EventLoopDelay.this.intervalNanos, TimeUnit.NANOSECONDS);
			}
			catch (RejectedExecutionException ex) {
				// The loop is shutting down.
			}
		}

		@Override
		public void run() {
			this.delays[this.run++ % RUNS] = Math.max(0, System.nanoTime() - this.dueAt);
			long least = Long.MAX_VALUE;
			for (long each : this.delays) {
				least = Math.min(least, each);
			}
			this.delay = least;
			schedule();
		}

		long delay() {
			return this.delay;
		}

	}

}
