package dev.junction.gateway.resilience;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.test.StepVerifier;

import static org.assertj.core.api.Assertions.assertThat;

class FirstChunkGuardTests {

	private final IllegalStateException upstream = new IllegalStateException("upstream failed");

	@Test
	void leavesAFailureBeforeTheFirstChunkAsItIs() {
		StepVerifier.create(FirstChunkGuard.mark(Flux.<String>error(this.upstream)))
			.expectErrorSatisfies((error) -> assertThat(error).isSameAs(this.upstream))
			.verify(Duration.ofSeconds(5));
	}

	@Test
	void marksAFailureAfterTheFirstChunk() {
		StepVerifier.create(FirstChunkGuard.mark(Flux.just("a").concatWith(Flux.error(this.upstream))))
			.expectNext("a")
			.expectErrorSatisfies((error) -> assertThat(error).isInstanceOf(FirstChunkGuard.AfterFirstChunk.class)
				.hasCause(this.upstream)
				.hasMessage("upstream failed"))
			.verify(Duration.ofSeconds(5));
	}

	@Test
	void doesNotMarkAFailureTwiceWhenGuardedAgain() {
		Flux<String> twice = FirstChunkGuard
			.mark(FirstChunkGuard.mark(Flux.just("a").concatWith(Flux.error(this.upstream))));
		StepVerifier.create(twice)
			.expectNext("a")
			.expectErrorSatisfies((error) -> assertThat(error).isInstanceOf(FirstChunkGuard.AfterFirstChunk.class)
				.hasCause(this.upstream))
			.verify(Duration.ofSeconds(5));
	}

	@Test
	void eachSubscriptionStartsUnmarked() {
		AtomicInteger subscriptions = new AtomicInteger();
		Flux<String> stream = FirstChunkGuard.mark(Flux.defer(() -> (subscriptions.incrementAndGet() == 1)
				? Flux.just("a").concatWith(Flux.error(this.upstream)) : Flux.error(this.upstream)));
		StepVerifier.create(stream)
			.expectNext("a")
			.expectError(FirstChunkGuard.AfterFirstChunk.class)
			.verify(Duration.ofSeconds(5));
		StepVerifier.create(stream)
			.expectErrorSatisfies((error) -> assertThat(error).isSameAs(this.upstream))
			.verify(Duration.ofSeconds(5));
	}

	@Test
	void unmarkTurnsAMarkedFailureBackIntoWhatItWas() {
		Flux<String> marked = FirstChunkGuard.mark(Flux.just("a").concatWith(Flux.error(this.upstream)));
		StepVerifier.create(FirstChunkGuard.unmark(marked))
			.expectNext("a")
			.expectErrorSatisfies((error) -> assertThat(error).isSameAs(this.upstream))
			.verify(Duration.ofSeconds(5));
	}

	@Test
	void unmarkLeavesOtherFailuresAlone() {
		StepVerifier.create(FirstChunkGuard.unmark(Flux.<String>error(this.upstream)))
			.expectErrorSatisfies((error) -> assertThat(error).isSameAs(this.upstream))
			.verify(Duration.ofSeconds(5));
	}

}
