package dev.junction.redis;

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

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.codec.StringCodec;

/**
 * An application's one Redis connection (string keys, byte values), on the client Spring
 * Boot sets up from {@code spring.data.redis.*}. It is made on first use and made again
 * after a failed attempt (at most once a second), so the application starts, and
 * recovers, without Redis; once made, Lettuce reconnects it by itself. Connecting blocks,
 * so it runs on a thread of its own, never on the caller's event loop.
 */
public final class RedisConnector implements AutoCloseable {

	private static final long RECONNECT_PAUSE_NANOS = Duration.ofSeconds(1).toNanos();

	private final RedisClient client;

	private final AtomicReference<Attempt> current = new AtomicReference<>();

	private final AtomicInteger inFlight = new AtomicInteger();

	private final CompletableFuture<Void> drained = new CompletableFuture<>();

	private volatile boolean closing;

	private final ExecutorService connector = Executors.newSingleThreadExecutor((task) -> {
		Thread thread = new Thread(task, "redis-connector");
		thread.setDaemon(true);
		return thread;
	});

	public RedisConnector(RedisClient client) {
		this.client = client;
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
		// Completed on this thread: the first commands must not run inside Lettuce's
		// connection
		// callbacks, which hold its endpoint lock.
		this.connector.execute(() -> {
			try {
				connection.complete(this.client.connect(RedisCodec.of(StringCodec.UTF8, ByteArrayCodec.INSTANCE)));
			}
			catch (RuntimeException ex) {
				connection.completeExceptionally(ex);
			}
		});
		return connection;
	}

	/**
	 * Runs a Redis call and counts it until it completes, so that closing waits for calls
	 * under way (Bucket4j's compare-and-swap rounds write follow-up commands on Lettuce's
	 * threads, which must not meet a closing connection).
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
		Attempt attempt = this.current.get();
		if (attempt != null && attempt.connection.isDone() && !attempt.connection.isCompletedExceptionally()) {
			attempt.connection.join().close();
		}
	}

	private record Attempt(long since, CompletableFuture<StatefulRedisConnection<String, byte[]>> connection) {
	}

}
