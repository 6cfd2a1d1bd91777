package dev.junction.messaging.common;

import java.util.Queue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Sinks;
import reactor.util.concurrent.Queues;

/**
 * Lets any number of threads emit into one {@link Sinks.Many}, which accepts a single
 * emitter at a time, without a lock: a thread that finds another one emitting leaves its
 * value in a queue and returns, and the emitting thread hands it on before it leaves. No
 * emitter ever waits for another, and values reach the sink one at a time, in queue
 * order.
 *
 * @param <T> the values emitted
 */
public final class SerializedEmitter<T> {

	private static final Logger logger = LoggerFactory.getLogger(SerializedEmitter.class);

	private final Sinks.Many<T> sink;

	private final BiConsumer<T, Sinks.EmitResult> onFailure;

	private final Queue<T> queue = Queues.<T>unboundedMultiproducer().get();

	private final AtomicInteger pending = new AtomicInteger();

	/**
	 * An emitter into {@code sink}; {@code onFailure} hears about every value the sink
	 * refused (a multicast sink with no subscriber refuses with
	 * {@code FAIL_ZERO_SUBSCRIBER}).
	 */
	public SerializedEmitter(Sinks.Many<T> sink, BiConsumer<T, Sinks.EmitResult> onFailure) {
		this.sink = sink;
		this.onFailure = onFailure;
	}

	/**
	 * Hands {@code value} to the sink, now or, if another thread is emitting, through
	 * that thread.
	 */
	public void emit(T value) {
		this.queue.offer(value);
		if (this.pending.getAndIncrement() != 0) {
			return;
		}
		int missed = 1;
		do {
			T next;
			while ((next = this.queue.poll()) != null) {
				emitOne(next);
			}
			missed = this.pending.addAndGet(-missed);
		}
		while (missed != 0);
	}

	private void emitOne(T value) {
		try {
			Sinks.EmitResult result = this.sink.tryEmitNext(value);
			if (result.isFailure()) {
				this.onFailure.accept(value, result);
			}
		}
		catch (RuntimeException ex) {
			// A subscriber that throws must not stop the values queued behind this one.
			logger.warn("Value not emitted: {}", ex.toString());
		}
	}

	/** The values emitted, as the sink publishes them. */
	public Flux<T> asFlux() {
		return this.sink.asFlux();
	}

}
