package dev.junction.database;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.test.StepVerifier;

import static org.assertj.core.api.Assertions.assertThat;

class WholeResultsTests {

	@Test
	void readsEveryRowAfterItsSubscriberCancels() {
		AtomicInteger read = new AtomicInteger();
		AtomicBoolean cancelled = new AtomicBoolean();
		AtomicBoolean completed = new AtomicBoolean();
		Flux<Integer> rows = Flux.range(1, 100)
			.doOnNext((row) -> read.incrementAndGet())
			.doOnCancel(() -> cancelled.set(true))
			.doOnComplete(() -> completed.set(true));
		StepVerifier.create(WholeResults.all(rows).take(3)).expectNext(1, 2, 3).verifyComplete();
		assertThat(read).hasValue(100);
		assertThat(completed).isTrue();
		assertThat(cancelled).isFalse();
	}

	@Test
	void passesTheSubscribersContextToTheQuery() {
		Flux<String> rows = Flux.deferContextual((context) -> Flux.just(context.<String>get("connection")));
		StepVerifier.create(WholeResults.all(rows).contextWrite((context) -> context.put("connection", "bound")))
			.expectNext("bound")
			.verifyComplete();
	}

	@Test
	void passesOnAFailureWhileSomeoneListens() {
		StepVerifier.create(WholeResults.all(Flux.error(new IllegalStateException("down")))).verifyErrorMessage("down");
	}

}
