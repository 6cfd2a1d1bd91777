package dev.junction.gateway.ratelimit;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.github.bucket4j.Bucket;
import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.ConsumptionProbe;

/**
 * Buckets in this process's memory (lock-free, never blocking); idle ones are forgotten.
 */
public final class LocalBucketStore implements BucketStore {

	private final Cache<String, Bucket> buckets;

	public LocalBucketStore(Duration idle) {
		this.buckets = Caffeine.newBuilder().expireAfterAccess(idle).maximumSize(1_000_000).build();
	}

	@Override
	public CompletableFuture<ConsumptionProbe> tryConsume(String key, BucketConfiguration configuration, long tokens) {
		return CompletableFuture.completedFuture(bucket(key, configuration).tryConsumeAndReturnRemaining(tokens));
	}

	@Override
	public CompletableFuture<Void> adjust(String key, BucketConfiguration configuration, long delta) {
		Bucket bucket = bucket(key, configuration);
		if (delta > 0) {
			bucket.addTokens(delta);
		}
		else if (delta < 0) {
			bucket.consumeIgnoringRateLimits(-delta);
		}
		return CompletableFuture.completedFuture(null);
	}

	private Bucket bucket(String key, BucketConfiguration configuration) {
		return this.buckets.get(key, (name) -> Bucket.builder().addLimit(configuration.getBandwidths()[0]).build());
	}

}
