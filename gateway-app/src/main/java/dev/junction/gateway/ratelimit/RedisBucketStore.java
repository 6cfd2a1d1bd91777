package dev.junction.gateway.ratelimit;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicReference;

import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.ConsumptionProbe;
import io.github.bucket4j.distributed.AsyncBucketProxy;
import io.github.bucket4j.distributed.ExpirationAfterWriteStrategy;
import io.github.bucket4j.distributed.proxy.AsyncProxyManager;
import io.github.bucket4j.distributed.proxy.optimization.Optimizations;
import io.github.bucket4j.redis.lettuce.Bucket4jLettuce;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
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
 * bucket would be full again. The connection is made on first use and made again after a
 * failure (at most once a second), so the gateway starts, and recovers, without Redis.
 */
public final class RedisBucketStore implements BucketStore {

	private static final long RECONNECT_PAUSE_NANOS = Duration.ofSeconds(1).toNanos();

	private final RedisClient client;

	private final RedisURI uri;

	private final Duration window;

	private final AtomicReference<Connection> current = new AtomicReference<>();

	private final ExecutorService connector = Executors.newSingleThreadExecutor((task) -> {
		Thread thread = new Thread(task, "redis-bucket-connector");
		thread.setDaemon(true);
		return thread;
	});

	public RedisBucketStore(String url, Duration timeout, Duration window) {
		this.uri = RedisURI.create(url);
		this.uri.setTimeout(timeout);
		this.window = window;
		this.client = RedisClient.create();
		this.client.setOptions(ClientOptions.builder()
			.timeoutOptions(TimeoutOptions.enabled(timeout))
			.disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
			.build());
		buckets();
	}

	@Override
	public CompletableFuture<ConsumptionProbe> tryConsume(String key, BucketConfiguration configuration, long tokens) {
		return buckets().thenCompose((buckets) -> bucket(buckets, key, configuration).tryConsumeAndReturnRemaining(tokens));
	}

	@Override
	public CompletableFuture<Void> adjust(String key, BucketConfiguration configuration, long delta) {
		if (delta == 0) {
			return CompletableFuture.completedFuture(null);
		}
		return buckets().thenCompose((buckets) -> (delta > 0) ? bucket(buckets, key, configuration).addTokens(delta)
				: bucket(buckets, key, configuration).consumeIgnoringRateLimits(-delta).thenApply((ignored) -> null));
	}

	private CompletableFuture<AsyncProxyManager<String>> buckets() {
		Connection connection = this.current.get();
		long now = System.nanoTime();
		if (connection != null && (!connection.managers.isCompletedExceptionally()
				|| now - connection.since < RECONNECT_PAUSE_NANOS)) {
			return connection.managers;
		}
		CompletableFuture<AsyncProxyManager<String>> managers = new CompletableFuture<>();
		if (!this.current.compareAndSet(connection, new Connection(now, managers))) {
			return this.current.get().managers;
		}
		// Setting up a Lettuce connection takes locks: never on the caller's event loop.
		CompletableFuture
			.supplyAsync(() -> this.client.connectAsync(RedisCodec.of(StringCodec.UTF8, ByteArrayCodec.INSTANCE), this.uri),
					this.connector)
			.thenCompose((future) -> future.toCompletableFuture())
			.thenApply(this::proxyManager)
			.whenComplete((manager, error) -> {
				if (error != null) {
					managers.completeExceptionally(error);
				}
				else {
					managers.complete(manager);
				}
			});
		return managers;
	}

	private AsyncProxyManager<String> proxyManager(StatefulRedisConnection<String, byte[]> connection) {
		return Bucket4jLettuce.casBasedBuilder(connection)
			.expirationAfterWrite(ExpirationAfterWriteStrategy.basedOnTimeForRefillingBucketUpToMax(this.window))
			.build()
			.asAsync();
	}

	private static AsyncBucketProxy bucket(AsyncProxyManager<String> buckets, String key,
			BucketConfiguration configuration) {
		return buckets.builder()
			.withOptimization(Optimizations.batching())
			.build(key, () -> CompletableFuture.completedFuture(configuration));
	}

	@Override
	public void close() {
		this.connector.shutdownNow();
		this.client.shutdown();
	}

	private record Connection(long since, CompletableFuture<AsyncProxyManager<String>> managers) {
	}

}
