package dev.junction.gateway.warmup;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.util.function.LongSupplier;

import org.jspecify.annotations.Nullable;

/**
 * Whether the JIT has gone quiet: it spent at most {@link #QUIET_SHARE} of the last
 * window ({@link #WINDOW_NANOS}) compiling. Methods called once per request reach the
 * optimizing compiler's thresholds only after thousands of requests, and while its queue
 * is long the JVM raises those thresholds, so a warm-up that stops while the compiler is
 * busy leaves hundreds of the request path's methods to be compiled under the first
 * clients.
 */
final class JitActivity {

	static final long WINDOW_NANOS = 1_000_000_000L;

	static final double QUIET_SHARE = 0.05;

	private final LongSupplier compiledMillis;

	private final LongSupplier nanoTime;

	private long windowStart;

	private long compiledAtStart;

	JitActivity(LongSupplier compiledMillis, LongSupplier nanoTime) {
		this.compiledMillis = compiledMillis;
		this.nanoTime = nanoTime;
		this.windowStart = nanoTime.getAsLong();
		this.compiledAtStart = compiledMillis.getAsLong();
	}

	/** The JIT's activity from now on, or null where the JVM does not measure it. */
	static @Nullable JitActivity start() {
		CompilationMXBean compiler = ManagementFactory.getCompilationMXBean();
		if (compiler == null || !compiler.isCompilationTimeMonitoringSupported()) {
			return null;
		}
		return new JitActivity(compiler::getTotalCompilationTime, System::nanoTime);
	}

	/**
	 * Whether the window that has just ended was quiet; false while it lasts, after which
	 * the next one starts.
	 */
	boolean quiet() {
		long now = this.nanoTime.getAsLong();
		long elapsed = now - this.windowStart;
		if (elapsed < WINDOW_NANOS) {
			return false;
		}
		long compiled = this.compiledMillis.getAsLong();
		boolean quiet = (compiled - this.compiledAtStart) * 1_000_000.0 <= elapsed * QUIET_SHARE;
		this.windowStart = now;
		this.compiledAtStart = compiled;
		return quiet;
	}

}
