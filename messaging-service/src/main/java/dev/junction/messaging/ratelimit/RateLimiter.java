package dev.junction.messaging.ratelimit;

import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.ConsumptionProbe;
import reactor.core.publisher.Mono;

/** Token buckets by key: in memory, or shared through Redis. */
public interface RateLimiter {

	/**
	 * Takes one token from the bucket {@code key}, created with {@code configuration}
	 * when new.
	 */
	Mono<ConsumptionProbe> tryConsume(String key, BucketConfiguration configuration);

}
