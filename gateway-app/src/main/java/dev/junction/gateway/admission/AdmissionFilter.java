package dev.junction.gateway.admission;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import dev.junction.gateway.error.DeniedException;
import dev.junction.netty.EventLoopDelay;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;

/**
 * Sheds what the gateway cannot take on: a request arriving while {@code maxInFlight} are
 * in progress, or while the event loop it arrived on runs later than
 * {@code maxEventLoopDelay}, fails at once with 503 and {@code Retry-After}, before its
 * body is read, so work already accepted keeps its pace and a client never waits out its
 * own timeout in a queue the gateway cannot drain. Requests to actuator's endpoints are
 * always let through.
 */
public final class AdmissionFilter implements WebFilter, MeterBinder {

	/** Counter of shed requests, tagged by reason. */
	public static final String SHED = "junction.gateway.admission.shed";

	/** Gauge of the requests in progress that count against the bound. */
	public static final String IN_FLIGHT = "junction.gateway.admission.in.flight";

	/** Gauge of the largest delay of the server's event loops. */
	public static final String EVENT_LOOP_DELAY = "junction.gateway.event.loop.delay";

	/** The error code of a shed request. */
	public static final String CODE = "gateway_overloaded";

	private static final String ACTUATOR = "/actuator";

	private final int maxInFlight;

	private final long maxDelayNanos;

	private final Duration retryAfter;

	private final @Nullable EventLoopDelay delay;

	private final AtomicInteger inFlight = new AtomicInteger();

	private volatile @Nullable Counter shedInFlight;

	private volatile @Nullable Counter shedDelay;

	public AdmissionFilter(AdmissionProperties properties, @Nullable EventLoopDelay delay) {
		this.maxInFlight = (properties.maxInFlight() > 0) ? properties.maxInFlight() : Integer.MAX_VALUE;
		this.maxDelayNanos = properties.maxEventLoopDelay().toNanos();
		this.retryAfter = properties.retryAfter();
		this.delay = delay;
	}

	@Override
	public void bindTo(MeterRegistry registry) {
		this.shedInFlight = shedCounter(registry, "in_flight");
		this.shedDelay = shedCounter(registry, "event_loop_delay");
		Gauge.builder(IN_FLIGHT, this.inFlight, AtomicInteger::get)
			.description("Requests in progress, counted against junction.gateway.admission.max-in-flight")
			.register(registry);
		EventLoopDelay probes = this.delay;
		if (probes != null) {
			Gauge.builder(EVENT_LOOP_DELAY, probes, (each) -> each.largestNanos() / 1e9)
				.description("How late the server's busiest event loop runs what is due")
				.baseUnit("seconds")
				.register(registry);
		}
	}

	@Override
	public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
		if (exchange.getRequest().getPath().pathWithinApplication().value().startsWith(ACTUATOR)) {
			return chain.filter(exchange);
		}
		EventLoopDelay probes = this.delay;
		if (probes != null && this.maxDelayNanos > 0 && probes.currentNanos() > this.maxDelayNanos) {
			return shed(this.shedDelay, "The gateway is over capacity right now.");
		}
		if (this.inFlight.incrementAndGet() > this.maxInFlight) {
			this.inFlight.decrementAndGet();
			return shed(this.shedInFlight,
					"The gateway is serving its limit of " + this.maxInFlight + " requests at once.");
		}
		return Mono.defer(() -> chain.filter(exchange)).doFinally((signal) -> this.inFlight.decrementAndGet());
	}

	/** Requests in progress that count against the bound. */
	public int inFlight() {
		return this.inFlight.get();
	}

	private Mono<Void> shed(@Nullable Counter counter, String reason) {
		if (counter != null) {
			counter.increment();
		}
		return Mono.error(DeniedException.unavailable(CODE,
				reason + " Retry after " + Math.max(1, this.retryAfter.toSeconds()) + " s.", this.retryAfter));
	}

	private static Counter shedCounter(MeterRegistry registry, String reason) {
		return Counter.builder(SHED)
			.description("Requests answered 503 before they were read, the gateway being at capacity")
			.tag("reason", reason)
			.register(registry);
	}

}
