package dev.junction.messaging.ratelimit;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
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
 * not collapse into CAS retries.
 */
class RedisRateLimiter implements RateLimiter {

	private final AsyncProxyManager<String> proxyManager;

	private final Cache<String, AsyncBucketProxy> proxies;

	RedisRateLimiter(StatefulRedisConnection<String, byte[]> connection, Duration period) {
		this.proxyManager = Bucket4jLettuce.casBasedBuilder(connection)
			.expirationAfterWrite(ExpirationAfterWriteStrategy.basedOnTimeForRefillingBucketUpToMax(period))
			.build()
			.asAsync();
		this.proxies = Caffeine.newBuilder().expireAfterAccess(period.multipliedBy(2)).maximumSize(100_000).build();
	}

	@Override
	public Mono<ConsumptionProbe> tryConsume(String key, BucketConfiguration configuration) {
		AsyncBucketProxy bucket = this.proxies.get(key, (k) -> this.proxyManager.builder()
			.withOptimization(Optimizations.batching())
			.build(k, () -> CompletableFuture.completedFuture(configuration)));
		return Mono.fromFuture(() -> bucket.tryConsumeAndReturnRemaining(1));
	}

}
