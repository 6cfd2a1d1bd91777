package dev.junction.gateway.ratelimit;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.ConsumptionProbe;
import io.github.bucket4j.distributed.ExpirationAfterWriteStrategy;
import io.github.bucket4j.distributed.proxy.AsyncProxyManager;
import io.github.bucket4j.distributed.proxy.optimization.Optimizations;
import io.github.bucket4j.redis.lettuce.Bucket4jLettuce;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.codec.StringCodec;

/**
 * Buckets in Redis through Bucket4j's Lettuce backend (compare-and-swap), so that every
 * gateway instance draws on one budget. Calls are asynchronous and complete on Lettuce's
 * event loop; concurrent calls on one bucket are batched, which keeps a hot key (one gateway
 * key shared by many clients) from collapsing under contention. Keys expire once their
 * bucket would be full again.
 */
public final class RedisBucketStore implements BucketStore {

	private final RedisClient client;

	private final StatefulRedisConnection<String, byte[]> connection;

	private final AsyncProxyManager<String> buckets;

	public RedisBucketStore(String url, Duration timeout, Duration window) {
		this.client = RedisClient.create(url);
		this.client.setOptions(ClientOptions.builder().timeoutOptions(TimeoutOptions.enabled(timeout)).build());
		this.connection = this.client.connect(RedisCodec.of(StringCodec.UTF8, ByteArrayCodec.INSTANCE));
		this.buckets = Bucket4jLettuce.casBasedBuilder(this.connection)
			.expirationAfterWrite(ExpirationAfterWriteStrategy.basedOnTimeForRefillingBucketUpToMax(window))
			.build()
			.asAsync();
	}

	@Override
	public CompletableFuture<ConsumptionProbe> tryConsume(String key, BucketConfiguration configuration, long tokens) {
		return bucket(key, configuration).tryConsumeAndReturnRemaining(tokens);
	}

	@Override
	public CompletableFuture<Void> adjust(String key, BucketConfiguration configuration, long delta) {
		if (delta > 0) {
			return bucket(key, configuration).addTokens(delta);
		}
		if (delta < 0) {
			return bucket(key, configuration).consumeIgnoringRateLimits(-delta).thenApply((ignored) -> null);
		}
		return CompletableFuture.completedFuture(null);
	}

	private io.github.bucket4j.distributed.AsyncBucketProxy bucket(String key, BucketConfiguration configuration) {
		return this.buckets.builder()
			.withOptimization(Optimizations.batching())
			.build(key, () -> CompletableFuture.completedFuture(configuration));
	}

	@Override
	public void close() {
		this.connection.close();
		this.client.shutdown();
	}


}
