package dev.junction.gateway.limit;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ConcurrencyLimiterTests {

	private final Movable limiter = new Movable();

	@Test
	void aRaisedLimitLetsTheWaitersIn() {
		ConcurrencyLimiter.Permit first = this.limiter.acquire().block();
		AtomicReference<ConcurrencyLimiter.Permit> second = new AtomicReference<>();
		this.limiter.acquire().subscribe(second::set);
		assertThat(second).hasNullValue();
		assertThat(this.limiter.waiting()).isEqualTo(1);

		this.limiter.concurrency(2);

		assertThat(second).doesNotHaveNullValue();
		assertThat(this.limiter.inFlight()).isEqualTo(2);
		first.release();
		second.get().release();
	}

	@Test
	void aLoweredLimitLetsNobodyInUntilFewerAreInProgress() {
		this.limiter.concurrency(2);
		ConcurrencyLimiter.Permit first = this.limiter.acquire().block();
		ConcurrencyLimiter.Permit second = this.limiter.acquire().block();
		this.limiter.concurrency(1);
		AtomicReference<ConcurrencyLimiter.Permit> third = new AtomicReference<>();
		this.limiter.acquire().subscribe(third::set);

		first.release();
		assertThat(third).hasNullValue();
		second.release();
		assertThat(third).doesNotHaveNullValue();
		assertThat(this.limiter.inFlight()).isEqualTo(1);
		third.get().release();
	}

	@Test
	void isFullOnlyWithNoPermitFreeAndNoPlaceToWait() {
		assertThat(this.limiter.full()).isFalse();
		ConcurrencyLimiter.Permit first = this.limiter.acquire().block();
		assertThat(this.limiter.full()).isFalse();
		this.limiter.acquire().subscribe();
		assertThat(this.limiter.full()).isTrue();
		this.limiter.concurrency(2);
		assertThat(this.limiter.full()).isFalse();
		first.release();
	}

	/** One call at once to begin with, one more waiting for up to a minute. */
	private static final class Movable extends ConcurrencyLimiter {

		Movable() {
			super(1, 1, Duration.ofMinutes(1), true, IllegalStateException::new, IllegalStateException::new);
		}

		@Override
		protected void concurrency(int concurrency) {
			super.concurrency(concurrency);
		}

	}

}
