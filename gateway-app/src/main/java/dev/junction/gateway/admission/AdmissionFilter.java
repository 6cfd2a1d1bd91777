package dev.junction.gateway.admission;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import dev.junction.gateway.error.DeniedException;
import dev.junction.gateway.limit.ConcurrencyLimiter;
import dev.junction.netty.EventLoopDelay;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.jspecify.annotations.Nullable;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import org.springframework.http.HttpHeaders;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.util.unit.DataSize;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;

/**
 * Admits at most {@code maxInFlight} requests at once, fewer while the server's event
 * loops run later than {@code targetEventLoopDelay} ({@link AdaptiveBound}); up to
 * {@code queueSize} more wait for one of them to end, at most {@code maxQueueWait}, in
 * arrival order. What the queue cannot hold or has held too long fails with 503 and
 * {@code Retry-After}, as does a request arriving while the event loop it arrived on runs
 * later than {@code maxEventLoopDelay}. Bodies are read only once a request is admitted,
 * so waiting and shed requests cost little, work already accepted keeps its pace and a
 * client never waits out its own timeout in a backlog the gateway cannot drain. Requests
 * to actuator's endpoints are always let through.
 */
public final class AdmissionFilter implements WebFilter, MeterBinder, AutoCloseable {

	/** Counter of shed requests, tagged by reason. */
	public static final String SHED = "junction.gateway.admission.shed";

	/** Gauge of the requests in progress that count against the bound. */
	public static final String IN_FLIGHT = "junction.gateway.admission.in.flight";

	/** Gauge of the bytes of request bodies in progress. */
	public static final String BODY_BYTES = "junction.gateway.admission.body.bytes";

	/** What a request body of unknown length counts for against the body budget. */
	static final long UNSIZED_BODY = DataSize.ofKilobytes(64).toBytes();

	/** Gauge of the bound on requests in progress, as it follows the event loops. */
	public static final String LIMIT = "junction.gateway.admission.limit";

	/** Gauge of the requests waiting to be admitted. */
	public static final String WAITING = "junction.gateway.admission.waiting";

	/** Timer of the wait to be admitted. */
	public static final String WAIT = "junction.gateway.admission.wait";

	/** Gauge of the largest delay of the server's event loops. */
	public static final String EVENT_LOOP_DELAY = "junction.gateway.event.loop.delay";

	/** The error code of a shed request. */
	public static final String CODE = "gateway_overloaded";

	private static final String ACTUATOR = "/actuator";

	private final long maxDelayNanos;

	private final Duration retryAfter;

	private final @Nullable EventLoopDelay delay;

	private final @Nullable Disposable adapting;

	private final Limiter limiter;

	private final long maxBodyBytes;

	private final long maxBodySize;

	private final AtomicLong bodyBytes = new AtomicLong();

	private volatile @Nullable Counter shedInFlight;

	private volatile @Nullable Counter shedBodyBytes;

	private volatile @Nullable Counter shedDelay;

	/**
	 * The filter for {@code properties}; {@code maxBodySize} is the largest body the
	 * gateway reads (a larger one is refused 413 without being held, so it counts for
	 * nothing here).
	 */
	public AdmissionFilter(AdmissionProperties properties, long maxBodySize, @Nullable EventLoopDelay delay) {
		this.maxDelayNanos = properties.maxEventLoopDelay().toNanos();
		this.retryAfter = properties.retryAfter();
		this.delay = delay;
		int bound = (properties.maxInFlight() > 0) ? properties.maxInFlight() : Integer.MAX_VALUE;
		this.limiter = new Limiter(bound, properties.queueSize(), properties.maxQueueWait());
		this.maxBodyBytes = properties.maxBodyBytesInFlight(Runtime.getRuntime().maxMemory()).toBytes();
		this.maxBodySize = maxBodySize;
		this.adapting = adapt(properties, bound, delay);
	}

	/** Moves the bound with the event loops' delay, every {@link AdaptiveBound#STEP}. */
	private @Nullable Disposable adapt(AdmissionProperties properties, int most, @Nullable EventLoopDelay probes) {
		if (probes == null || properties.targetEventLoopDelay().isZero() || properties.minInFlight() >= most) {
			return null;
		}
		AdaptiveBound bound = new AdaptiveBound(properties.minInFlight(), most, properties.targetEventLoopDelay());
		long step = AdaptiveBound.STEP.toNanos();
		return Schedulers.parallel()
			.schedulePeriodically(
					() -> this.limiter
						.bound(bound.next(this.limiter.concurrency(), this.limiter.inFlight(), probes.largestNanos())),
					step, step, TimeUnit.NANOSECONDS);
	}

	/** Stops moving the bound. */
	@Override
	public void close() {
		if (this.adapting != null) {
			this.adapting.dispose();
		}
	}

	@Override
	public void bindTo(MeterRegistry registry) {
		this.shedInFlight = shedCounter(registry, "in_flight");
		this.shedDelay = shedCounter(registry, "event_loop_delay");
		this.shedBodyBytes = shedCounter(registry, "body_bytes");
		Gauge.builder(BODY_BYTES, this.bodyBytes, AtomicLong::get)
			.description("Bytes of request bodies in progress, counted against "
					+ "junction.gateway.admission.max-body-bytes-in-flight")
			.baseUnit("bytes")
			.register(registry);
		Gauge.builder(IN_FLIGHT, this.limiter, Limiter::inFlight)
			.description("Requests in progress, counted against the bound (junction.gateway.admission.limit)")
			.register(registry);
		Gauge.builder(LIMIT, this.limiter, Limiter::concurrency)
			.description("The bound on requests in progress: junction.gateway.admission.max-in-flight, lower "
					+ "while the event loops run late")
			.register(registry);
		Gauge.builder(WAITING, this.limiter, Limiter::waiting)
			.description("Requests waiting to be admitted")
			.register(registry);
		this.limiter.timer = Timer.builder(WAIT).description("Time a request waited to be admitted").register(registry);
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
		if (isActuator(exchange.getRequest())) {
			return chain.filter(exchange);
		}
		if (isLate()) {
			return Mono.error(shedLate());
		}
		long weight = bodyWeight(exchange.getRequest());
		if (weight == 0) {
			return this.limiter.withPermit(() -> chain.filter(exchange)).then();
		}
		if (!takeBody(weight)) {
			return Mono.error(shedBody());
		}
		return this.limiter.withPermit(() -> chain.filter(exchange))
			.then()
			.doFinally((signal) -> this.bodyBytes.addAndGet(-weight));
	}

	/**
	 * The refusal {@code request} would meet at once, counted as shed, or null when it
	 * would be admitted or would wait for a place. Nothing is taken: a request let
	 * through takes its place in {@link #filter} as any other.
	 */
	public @Nullable DeniedException refusalAtOnce(ServerHttpRequest request) {
		if (isActuator(request)) {
			return null;
		}
		if (isLate()) {
			return shedLate();
		}
		if (this.limiter.full()) {
			return shed(this.shedInFlight, atLimit());
		}
		long held = this.bodyBytes.get();
		if (anyFits(held)) {
			// Its length is read once, by the filter.
			return null;
		}
		long weight = bodyWeight(request);
		return (weight > 0 && !fits(held, weight)) ? shedBody() : null;
	}

	private static boolean isActuator(ServerHttpRequest request) {
		return request.getPath().pathWithinApplication().value().startsWith(ACTUATOR);
	}

	private boolean isLate() {
		EventLoopDelay probes = this.delay;
		return probes != null && this.maxDelayNanos > 0 && probes.currentNanos() > this.maxDelayNanos;
	}

	private DeniedException shedLate() {
		return shed(this.shedDelay, "The gateway is over capacity right now.");
	}

	private DeniedException shedBody() {
		return shed(this.shedBodyBytes, "The gateway holds its limit of "
				+ DataSize.ofBytes(this.maxBodyBytes).toKilobytes() + " KB of request bodies at once.");
	}

	private String atLimit() {
		return "The gateway is serving its limit of " + this.limiter.concurrency() + " requests at once.";
	}

	/**
	 * Takes {@code weight} (more than 0) bytes of the body budget; a request always fits
	 * when no other body is in progress, however large.
	 */
	private boolean takeBody(long weight) {
		if (!fits(this.bodyBytes.getAndAdd(weight), weight)) {
			this.bodyBytes.addAndGet(-weight);
			return false;
		}
		return true;
	}

	/**
	 * Whether {@code weight} bytes fit beside the {@code held} ones: always when no other
	 * body is in progress or there is no budget.
	 */
	private boolean fits(long held, long weight) {
		return anyFits(held) || held + weight <= this.maxBodyBytes;
	}

	/** Whether a body of any size fits beside the {@code held} bytes. */
	private boolean anyFits(long held) {
		return this.maxBodyBytes <= 0 || held == 0;
	}

	private long bodyWeight(ServerHttpRequest request) {
		long length = request.getHeaders().getContentLength();
		if (length >= 0) {
			return (length <= this.maxBodySize) ? length : 0;
		}
		return request.getHeaders().containsHeader(HttpHeaders.TRANSFER_ENCODING) ? UNSIZED_BODY : 0;
	}

	/** Bytes of request bodies in progress. */
	public long bodyBytes() {
		return this.bodyBytes.get();
	}

	/** Requests in progress that count against the bound. */
	public int inFlight() {
		return this.limiter.inFlight();
	}

	/** The bound on requests in progress now. */
	public int bound() {
		return this.limiter.concurrency();
	}

	/** Requests waiting to be admitted. */
	public int waiting() {
		return this.limiter.waiting();
	}

	private DeniedException shed(@Nullable Counter counter, String reason) {
		if (counter != null) {
			counter.increment();
		}
		return DeniedException.unavailable(CODE,
				reason + " Retry after " + Math.max(1, this.retryAfter.toSeconds()) + " s.", this.retryAfter);
	}

	private static Counter shedCounter(MeterRegistry registry, String reason) {
		return Counter.builder(SHED)
			.description("Requests answered 503 before they were read, the gateway being at capacity")
			.tag("reason", reason)
			.register(registry);
	}

	/** The bound, with the shed answers and the wait's timer. */
	private final class Limiter extends ConcurrencyLimiter {

		private volatile @Nullable Timer timer;

		Limiter(int maxInFlight, int queueSize, Duration maxQueueWait) {
			super(maxInFlight, queueSize, maxQueueWait, true, () -> shed(AdmissionFilter.this.shedInFlight, atLimit()),
					() -> shed(AdmissionFilter.this.shedInFlight,
							"The gateway is serving its limit of " + AdmissionFilter.this.limiter.concurrency()
									+ " requests at once and none ended within " + maxQueueWait.toMillis() + " ms."));
		}

		void bound(int bound) {
			concurrency(bound);
		}

		@Override
		protected void waited(long nanos) {
			Timer waits = this.timer;
			if (waits != null && nanos > 0) {
				waits.record(Duration.ofNanos(nanos));
			}
		}

	}

}
