package dev.junction.gateway.ratelimit;

import java.util.concurrent.CompletableFuture;

import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.ConsumptionProbe;

/**
 * Where token buckets live: in this process, or in Redis to be shared by several
 * gateways.
 */
public interface BucketStore {

	/** Takes {@code tokens} from the bucket named {@code key} if it holds enough. */
	CompletableFuture<ConsumptionProbe> tryConsume(String key, BucketConfiguration configuration, long tokens);

	/**
	 * Gives back ({@code delta > 0}) or takes regardless of the limit ({@code delta < 0})
	 * tokens.
	 */
	CompletableFuture<Void> adjust(String key, BucketConfiguration configuration, long delta);

	/** Whether several gateways share these buckets. */
	default boolean shared() {
		return false;
	}

}
