package dev.junction.messaging.ratelimit;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import dev.junction.messaging.apikey.Caller;
import dev.junction.messaging.web.ApiException;
import dev.junction.messaging.web.RateLimitedException;
import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.ConsumptionProbe;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;

/**
 * Applies the rate limit of the request's route group to its API key, and reports the
 * bucket in {@code X-RateLimit-Limit}, {@code X-RateLimit-Remaining} and
 * {@code X-RateLimit-Reset} (seconds until the bucket is full again). Runs after
 * authentication; public routes are not limited.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 30)
public class RateLimitFilter implements WebFilter {

	/** Header with the group's limit per period. */
	public static final String LIMIT = "X-RateLimit-Limit";

	/** Header with the tokens left. */
	public static final String REMAINING = "X-RateLimit-Remaining";

	/** Header with the seconds until the bucket is full. */
	public static final String RESET = "X-RateLimit-Reset";

	private static final Logger logger = LoggerFactory.getLogger(RateLimitFilter.class);

	private static final long LOG_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(30);

	private final RateLimitProperties properties;

	private final RateLimiter limiter;

	private final Map<RouteGroup, BucketConfiguration> configurations = new EnumMap<>(RouteGroup.class);

	private final AtomicLong storeFailures = new AtomicLong();

	private final AtomicLong lastFailureLog = new AtomicLong(System.nanoTime() - LOG_INTERVAL_NANOS);

	public RateLimitFilter(RateLimitProperties properties, RateLimiter limiter) {
		this.properties = properties;
		this.limiter = limiter;
		for (RouteGroup group : RouteGroup.values()) {
			long limit = properties.limit(group);
			Bandwidth bandwidth = Bandwidth.builder()
				.capacity(limit)
				.refillGreedy(limit, properties.window())
				.id(group.id())
				.build();
			this.configurations.put(group, BucketConfiguration.builder().addLimit(bandwidth).build());
		}
	}

	@Override
	public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
		Caller caller = exchange.getAttribute(Caller.ATTRIBUTE);
		if (!this.properties.enabled() || caller == null) {
			return chain.filter(exchange);
		}
		RouteGroup group = RouteGroup.of(exchange.getRequest().getPath().pathWithinApplication().value());
		long limit = this.properties.limit(group);
		return this.limiter.tryConsume("rl:" + caller.keyId() + ":" + group.id(), this.configurations.get(group))
			.onErrorResume((ex) -> storeFailed(ex, group))
			.flatMap((probe) -> {
				if (probe == UNLIMITED) {
					return chain.filter(exchange);
				}
				HttpHeaders headers = exchange.getResponse().getHeaders();
				headers.set(LIMIT, Long.toString(limit));
				headers.set(REMAINING, Long.toString(probe.getRemainingTokens()));
				headers.set(RESET, Long.toString(seconds(probe.getNanosToWaitForReset())));
				if (!probe.isConsumed()) {
					return Mono
						.error(RateLimitedException.of(group.id(), limit, seconds(probe.getNanosToWaitForRefill())));
				}
				return chain.filter(exchange);
			});
	}

	private Mono<ConsumptionProbe> storeFailed(Throwable ex, RouteGroup group) {
		long failures = this.storeFailures.incrementAndGet();
		long now = System.nanoTime();
		long last = this.lastFailureLog.get();
		if (now - last >= LOG_INTERVAL_NANOS && this.lastFailureLog.compareAndSet(last, now)) {
			logger.warn("Rate-limit store unavailable ({} failures so far), {} requests: {}", failures,
					this.properties.failOpen() ? "letting through" : "rejecting", ex.toString());
		}
		if (this.properties.failOpen()) {
			return Mono.just(UNLIMITED);
		}
		return Mono.error(ApiException.unavailable("Rate limit store unavailable for group " + group.id()));
	}

	/** How many times the bucket store failed since start-up. */
	public long storeFailures() {
		return this.storeFailures.get();
	}

	private static long seconds(long nanos) {
		return (nanos <= 0) ? 0 : (nanos + 999_999_999L) / 1_000_000_000L;
	}

	/** Marker for "not limited" when the store failed open. */
	private static final ConsumptionProbe UNLIMITED = ConsumptionProbe.consumed(Long.MAX_VALUE, 0);

}
