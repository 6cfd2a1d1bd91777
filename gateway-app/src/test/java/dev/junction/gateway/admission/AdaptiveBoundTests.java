package dev.junction.gateway.admission;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class AdaptiveBoundTests {

	private static final long LATE = Duration.ofMillis(21).toNanos();

	private static final long ON_TIME = Duration.ofMillis(20).toNanos();

	private final AdaptiveBound bound = new AdaptiveBound(256, 2048, Duration.ofMillis(20));

	@Test
	void comesDownBelowTheRequestsInProgressWhileTheLoopsRunLate() {
		assertThat(this.bound.next(2048, 1000, LATE)).isEqualTo(800);
		assertThat(this.bound.next(800, 800, LATE)).isEqualTo(640);
	}

	@Test
	void neverRisesWhileTheLoopsRunLate() {
		assertThat(this.bound.next(300, 1000, LATE)).isEqualTo(300);
	}

	@Test
	void neverComesDownUnderTheLeast() {
		assertThat(this.bound.next(2048, 100, LATE)).isEqualTo(256);
		assertThat(this.bound.next(256, 300, LATE)).isEqualTo(256);
	}

	@Test
	void climbsBackByATwentiethWhileTheLoopsAreOnTime() {
		assertThat(this.bound.next(256, 256, ON_TIME)).isEqualTo(268);
		assertThat(this.bound.next(2000, 0, 0)).isEqualTo(2048);
		assertThat(this.bound.next(2048, 2048, 0)).isEqualTo(2048);
		assertThat(new AdaptiveBound(1, 8, Duration.ofMillis(20)).next(2, 0, 0)).isEqualTo(3);
	}

	@Test
	void climbsWithoutOverflowUpToAnUnboundedMost() {
		AdaptiveBound unbounded = new AdaptiveBound(256, Integer.MAX_VALUE, Duration.ofMillis(20));
		assertThat(unbounded.next(Integer.MAX_VALUE - 1, 0, 0)).isEqualTo(Integer.MAX_VALUE);
	}

	@Test
	void refusesALeastAboveTheMost() {
		assertThatIllegalArgumentException().isThrownBy(() -> new AdaptiveBound(300, 256, Duration.ofMillis(20)));
		assertThatIllegalArgumentException().isThrownBy(() -> new AdaptiveBound(0, 256, Duration.ofMillis(20)));
	}

}
