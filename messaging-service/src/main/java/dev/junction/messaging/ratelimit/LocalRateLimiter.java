package dev.junction.messaging.ratelimit;

import java.time.Duration;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.Bucket;
import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.ConsumptionProbe;
import io.github.bucket4j.local.LocalBucketBuilder;
import reactor.core.publisher.Mono;

/** Buckets in this process's memory; each service instance limits on its own. */
class LocalRateLimiter implements RateLimiter {

	private final Cache<String, Bucket> buckets;

	LocalRateLimiter(Duration idleExpiry) {
		this.buckets = Caffeine.newBuilder().expireAfterAccess(idleExpiry).maximumSize(1_000_000).build();
	}

	@Override
	public Mono<ConsumptionProbe> tryConsume(String key, BucketConfiguration configuration) {
		return Mono
			.fromSupplier(() -> this.buckets.get(key, (k) -> newBucket(configuration)).tryConsumeAndReturnRemaining(1));
	}

	private static Bucket newBucket(BucketConfiguration configuration) {
		LocalBucketBuilder builder = Bucket.builder();
		for (Bandwidth bandwidth : configuration.getBandwidths()) {
			builder.addLimit(bandwidth);
		}
		return builder.build();
	}

}
