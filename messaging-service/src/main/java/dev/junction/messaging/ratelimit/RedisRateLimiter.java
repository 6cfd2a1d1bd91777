package dev.junction.messaging.ratelimit;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.junction.redis.RedisConnector;
import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.ConsumptionProbe;
import io.github.bucket4j.distributed.AsyncBucketProxy;
import io.github.bucket4j.distributed.ExpirationAfterWriteStrategy;
import io.github.bucket4j.distributed.proxy.AsyncProxyManager;
import io.github.bucket4j.distributed.proxy.optimization.Optimizations;
import io.github.bucket4j.redis.lettuce.Bucket4jLettuce;
import io.lettuce.core.api.StatefulRedisConnection;
import reactor.core.publisher.Mono;

/**
 * Buckets in Redis, shared by every service instance (compare-and-swap through Lettuce).
 * Each bucket proxy batches concurrent requests, so a key hot on many connections does
 * not collapse into CAS retries. While Redis cannot be reached, calls fail at once and
 * the caller falls back.
 */
class RedisRateLimiter implements RateLimiter {

	private final RedisConnector redis;

	private final Duration period;

	private volatile Buckets buckets;

	RedisRateLimiter(RedisConnector redis, Duration period) {
		this.redis = redis;
		this.period = period;
	}

	@Override
	public Mono<ConsumptionProbe> tryConsume(String key, BucketConfiguration configuration) {
		return Mono.fromFuture(() -> this.redis
			.call((connection) -> buckets(connection).get(key, configuration).tryConsumeAndReturnRemaining(1)));
	}

	/** The buckets of {@code connection}, made anew when the connection is a new one. */
	private Buckets buckets(StatefulRedisConnection<String, byte[]> connection) {
		Buckets current = this.buckets;
		if (current != null && current.connection == connection) {
			return current;
		}
		current = new Buckets(connection, this.period);
		this.buckets = current;
		return current;
	}

	private static final class Buckets {

		private final StatefulRedisConnection<String, byte[]> connection;

		private final AsyncProxyManager<String> proxyManager;

		private final Cache<String, AsyncBucketProxy> proxies;

		Buckets(StatefulRedisConnection<String, byte[]> connection, Duration period) {
			this.connection = connection;
			this.proxyManager = Bucket4jLettuce.casBasedBuilder(connection)
				.expirationAfterWrite(ExpirationAfterWriteStrategy.basedOnTimeForRefillingBucketUpToMax(period))
				.build()
				.asAsync();
			this.proxies = Caffeine.newBuilder().expireAfterAccess(period.multipliedBy(2)).maximumSize(100_000).build();
		}

		AsyncBucketProxy get(String key, BucketConfiguration configuration) {
			return this.proxies.get(key,
					(k) -> this.proxyManager.builder()
						.withOptimization(Optimizations.batching())
						.build(k, () -> CompletableFuture.completedFuture(configuration)));
		}

	}

}
