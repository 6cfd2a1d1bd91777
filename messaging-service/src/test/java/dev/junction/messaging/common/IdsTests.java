package dev.junction.messaging.common;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Arrays;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.scheduler.Schedulers;
import reactor.test.StepVerifier;

import static org.assertj.core.api.Assertions.assertThat;

class IdsTests {

	@Test
	void generatesVersion7Ids() {
		UUID id = Ids.next();
		assertThat(id.version()).isEqualTo(7);
		assertThat(id.variant()).isEqualTo(2);
		long millis = id.getMostSignificantBits() >>> 16;
		assertThat(millis).isBetween(System.currentTimeMillis() - 60_000, System.currentTimeMillis() + 1);
	}

	@Test
	void increasesStrictlyEvenWithinOneMillisecond() {
		UUID previous = Ids.next();
		for (int i = 0; i < 100_000; i++) {
			UUID next = Ids.next();
			assertThat(next).isGreaterThan(previous);
			assertThat(Arrays.compareUnsigned(bytes(next), bytes(previous))).isPositive();
			previous = next;
		}
	}

	@Test
	void generatesOnAnEventLoopWithoutBlocking() {
		// Spread over several milliseconds, so every new millisecond draws fresh random
		// bits.
		StepVerifier
			.create(Flux.interval(Duration.ofMillis(1), Schedulers.parallel()).take(50).map((tick) -> Ids.next()))
			.expectNextCount(50)
			.expectComplete()
			.verify(Duration.ofSeconds(10));
	}

	private static byte[] bytes(UUID id) {
		return ByteBuffer.allocate(16)
			.putLong(id.getMostSignificantBits())
			.putLong(id.getLeastSignificantBits())
			.array();
	}

}
