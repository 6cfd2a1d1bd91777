package dev.junction.gateway.warmup;

import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class JitActivityTests {

	private final AtomicLong compiledMillis = new AtomicLong(1_000);

	private final AtomicLong nanoTime = new AtomicLong(5_000_000_000L);

	private final JitActivity jit = new JitActivity(this.compiledMillis::get, this.nanoTime::get);

	@Test
	void isNotQuietBeforeAWholeWindowHasPassed() {
		this.nanoTime.addAndGet(JitActivity.WINDOW_NANOS - 1);
		assertThat(this.jit.quiet()).isFalse();
	}

	@Test
	void isQuietAfterAWindowWithLittleCompilation() {
		this.nanoTime.addAndGet(JitActivity.WINDOW_NANOS);
		this.compiledMillis.addAndGet(50);
		assertThat(this.jit.quiet()).isTrue();
	}

	@Test
	void isNotQuietAfterAWindowWithMoreCompilationAndLooksAgainOverTheNextOne() {
		this.nanoTime.addAndGet(JitActivity.WINDOW_NANOS);
		this.compiledMillis.addAndGet(51);
		assertThat(this.jit.quiet()).isFalse();
		this.nanoTime.addAndGet(JitActivity.WINDOW_NANOS / 2);
		assertThat(this.jit.quiet()).as("within the next window").isFalse();
		this.nanoTime.addAndGet(JitActivity.WINDOW_NANOS / 2);
		this.compiledMillis.addAndGet(10);
		assertThat(this.jit.quiet()).isTrue();
	}

	@Test
	void measuresWhatTheJvmReports() {
		assertThat(JitActivity.start()).isNotNull();
	}

}
