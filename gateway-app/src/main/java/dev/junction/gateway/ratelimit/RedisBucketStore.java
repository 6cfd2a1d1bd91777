package dev.junction.gateway.ratelimit;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import dev.junction.redis.RedisConnector;
import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.ConsumptionProbe;
import io.github.bucket4j.distributed.AsyncBucketProxy;
import io.github.bucket4j.distributed.ExpirationAfterWriteStrategy;
import io.github.bucket4j.distributed.proxy.AsyncProxyManager;
import io.github.bucket4j.distributed.proxy.optimization.Optimizations;
import io.github.bucket4j.redis.lettuce.Bucket4jLettuce;
import io.lettuce.core.api.StatefulRedisConnection;

/**
 * Buckets in Redis through Bucket4j's Lettuce backend (compare-and-swap), so that every
 * gateway instance draws on one budget. Calls are asynchronous and complete on Lettuce's
 * event loop; concurrent calls on one bucket are batched, which keeps a hot key (one
 * gateway key shared by many clients) from collapsing under contention. Keys expire once
 * their bucket would be full again.
 */
public final class RedisBucketStore implements BucketStore {

	private final RedisConnector redis;

	private final Duration window;

	private volatile Managed managed;

	public RedisBucketStore(RedisConnector redis, Duration window) {
		this.redis = redis;
		this.window = window;
	}

	@Override
	public CompletableFuture<ConsumptionProbe> tryConsume(String key, BucketConfiguration configuration, long tokens) {
		return this.redis
			.call((connection) -> bucket(buckets(connection), key, configuration).tryConsumeAndReturnRemaining(tokens));
	}

	@Override
	public CompletableFuture<Void> adjust(String key, BucketConfiguration configuration, long delta) {
		if (delta == 0) {
			return CompletableFuture.completedFuture(null);
		}
		return this.redis.call((connection) -> {
			AsyncBucketProxy bucket = bucket(buckets(connection), key, configuration);
			return (delta > 0) ? bucket.addTokens(delta)
					: bucket.consumeIgnoringRateLimits(-delta).thenApply((ignored) -> null);
		});
	}

	@Override
	public boolean shared() {
		return true;
	}

	private AsyncProxyManager<String> buckets(StatefulRedisConnection<String, byte[]> connection) {
		Managed current = this.managed;
		if (current != null && current.connection == connection) {
			return current.buckets;
		}
		AsyncProxyManager<String> buckets = Bucket4jLettuce.casBasedBuilder(connection)
			.expirationAfterWrite(ExpirationAfterWriteStrategy.basedOnTimeForRefillingBucketUpToMax(this.window))
			.build()
			.asAsync();
		this.managed = new Managed(connection, buckets);
		return buckets;
	}

	private record Managed(StatefulRedisConnection<String, byte[]> connection, AsyncProxyManager<String> buckets) {
	}

	private static AsyncBucketProxy bucket(AsyncProxyManager<String> buckets, String key,
			BucketConfiguration configuration) {
		return buckets.builder()
			.withOptimization(Optimizations.batching())
			.build(key, () -> CompletableFuture.completedFuture(configuration));
	}

}
