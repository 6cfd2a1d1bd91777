package dev.junction.gateway.redis;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.codec.StringCodec;

/**
 * The gateway's one Redis connection (string keys, byte values), shared by the rate-limit
 * buckets and the response cache. It is made on first use and made again after a failure
 * (at most once a second), so the gateway starts, and recovers, without Redis. Setting up a
 * Lettuce connection takes locks, so it never happens on the caller's event loop.
 */
public final class RedisConnector implements AutoCloseable {

	private static final long RECONNECT_PAUSE_NANOS = Duration.ofSeconds(1).toNanos();

	private final RedisClient client;

	private final RedisURI uri;

	private final AtomicReference<Attempt> current = new AtomicReference<>();

	private final AtomicInteger inFlight = new AtomicInteger();

	private final CompletableFuture<Void> drained = new CompletableFuture<>();

	private volatile boolean closing;

	private final ExecutorService connector = Executors.newSingleThreadExecutor((task) -> {
		Thread thread = new Thread(task, "redis-connector");
		thread.setDaemon(true);
		return thread;
	});

	public RedisConnector(String url, Duration timeout) {
		this.uri = RedisURI.create(url);
		this.uri.setTimeout(timeout);
		this.client = RedisClient.create();
		this.client.setOptions(ClientOptions.builder()
			.timeoutOptions(TimeoutOptions.enabled(timeout))
			.disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
			.build());
		connection();
	}

	/** The connection, or the failure to make it. */
	public CompletableFuture<StatefulRedisConnection<String, byte[]>> connection() {
		Attempt attempt = this.current.get();
		long now = System.nanoTime();
		if (attempt != null
				&& (!attempt.connection.isCompletedExceptionally() || now - attempt.since < RECONNECT_PAUSE_NANOS)) {
			return attempt.connection;
		}
		CompletableFuture<StatefulRedisConnection<String, byte[]>> connection = new CompletableFuture<>();
		if (!this.current.compareAndSet(attempt, new Attempt(now, connection))) {
			return this.current.get().connection;
		}
		CompletableFuture
			.supplyAsync(() -> this.client.connectAsync(RedisCodec.of(StringCodec.UTF8, ByteArrayCodec.INSTANCE),
					this.uri), this.connector)
			.thenCompose((future) -> future.toCompletableFuture())
			// Complete on our own thread: the first commands must not run inside Lettuce's
			// connection callbacks, which hold its endpoint lock.
			.whenCompleteAsync((connected, error) -> {
				if (error != null) {
					connection.completeExceptionally(error);
				}
				else {
					connection.complete(connected);
				}
			}, this.connector);
		return connection;
	}

	/**
	 * Runs a Redis call and keeps count of it until it completes, so that closing can wait
	 * for calls under way: Lettuce must not close a connection while its own threads still
	 * write the follow-up commands of a call (Bucket4j's compare-and-swap rounds), or the two
	 * lock each other.
	 */
	public <T> CompletableFuture<T> call(Function<StatefulRedisConnection<String, byte[]>, CompletionStage<T>> call) {
		if (this.closing) {
			return CompletableFuture.failedFuture(new IllegalStateException("the Redis connection is closing"));
		}
		this.inFlight.incrementAndGet();
		return connection().thenCompose(call).whenComplete((result, error) -> {
			if (this.inFlight.decrementAndGet() == 0 && this.closing) {
				this.drained.complete(null);
			}
		}).toCompletableFuture();
	}

	@Override
	public void close() {
		this.closing = true;
		if (this.inFlight.get() == 0) {
			this.drained.complete(null);
		}
		try {
			this.drained.get(5, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		catch (ExecutionException | TimeoutException ex) {
			// Close anyway: calls still under way fail.
		}
		this.connector.shutdownNow();
		this.client.shutdown();
	}

	private record Attempt(long since, CompletableFuture<StatefulRedisConnection<String, byte[]>> connection) {
	}

}
