package dev.junction.gateway.provider;

import java.time.Duration;

import dev.junction.gateway.error.DeniedException;
import dev.junction.gateway.limit.ConcurrencyLimiter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.jspecify.annotations.Nullable;

/**
 * A provider's concurrency limit without blocking: at most {@code concurrency} calls in
 * flight upstream, up to {@code queueSize} more waiting (at most {@code maxQueueWait})
 * for a permit in arrival order. With {@code dropExcess}, a request finding the queue
 * full fails at once with 503 and Retry-After; without it, it waits anyway.
 */
public final class ProviderLimiter extends ConcurrencyLimiter implements MeterBinder {

	/** Timer of the wait for a permit, tagged by provider. */
	public static final String QUEUE_WAIT = "junction.provider.queue.wait";

	/** Gauge of the calls holding a permit, tagged by provider. */
	public static final String IN_FLIGHT = "junction.provider.in.flight";

	/** Gauge of the requests waiting for a permit, tagged by provider. */
	public static final String WAITING = "junction.provider.queue.waiting";

	private final String provider;

	private volatile @Nullable Timer queueWait;

	public ProviderLimiter(String provider, int concurrency, int queueSize, Duration maxQueueWait, boolean dropExcess) {
		super(check(provider, concurrency, queueSize), queueSize, maxQueueWait, dropExcess,
				() -> DeniedException.unavailable("provider_queue",
						"Provider '" + provider + "' is at its concurrency limit (" + concurrency
								+ ") and its queue is full.",
						Duration.ofSeconds(1)),
				() -> DeniedException.unavailable("provider_queue",
						"Provider '" + provider + "' had no free permit within " + maxQueueWait.toMillis() + " ms.",
						Duration.ofSeconds(1)));
		this.provider = provider;
	}

	private static int check(String provider, int concurrency, int queueSize) {
		if (concurrency < 1 || queueSize < 0) {
			throw new IllegalStateException("junction.gateway.providers." + provider
					+ ": concurrency must be at least 1 and queue-size at least 0");
		}
		return concurrency;
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

	@Override
	protected void waited(long nanos) {
		Timer timer = this.queueWait;
		if (timer != null) {
			timer.record(Duration.ofNanos(nanos));
		}
	}

}
