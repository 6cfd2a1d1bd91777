package dev.junction.database;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.test.StepVerifier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

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

	@Test
	void readsTheOneRowToTheEndOfItsResult() {
		AtomicBoolean completed = new AtomicBoolean();
		StepVerifier.create(WholeResults.one(Flux.just("row").doOnComplete(() -> completed.set(true))))
			.expectNext("row")
			.verifyComplete();
		assertThat(completed).isTrue();
		StepVerifier.create(WholeResults.one(Flux.empty())).verifyComplete();
	}

	@Test
	void refusesASecondRowWhereOneWasExpected() {
		StepVerifier.create(WholeResults.one(Flux.just(1, 2))).verifyError(IndexOutOfBoundsException.class);
	}

	@Test
	void readsTheOneRowAfterItsSubscriberCancels() {
		AtomicBoolean cancelled = new AtomicBoolean();
		AtomicBoolean completed = new AtomicBoolean();
		Flux<String> row = Flux.just("row")
			.delaySubscription(Duration.ofMillis(50))
			.doOnCancel(() -> cancelled.set(true))
			.doOnComplete(() -> completed.set(true));
		StepVerifier.create(WholeResults.one(row)).thenCancel().verify();
		await().untilTrue(completed);
		assertThat(cancelled).isFalse();
	}

	@Test
	void drainsTheRowsOfAStatementAfterItsSubscriberCancels() {
		AtomicInteger read = new AtomicInteger();
		AtomicBoolean cancelled = new AtomicBoolean();
		AtomicBoolean completed = new AtomicBoolean();
		Flux<Integer> rows = Flux.range(1, 3)
			.delaySubscription(Duration.ofMillis(50))
			.doOnNext((row) -> read.incrementAndGet())
			.doOnCancel(() -> cancelled.set(true))
			.doOnComplete(() -> completed.set(true));
		StepVerifier.create(WholeResults.drained(rows)).thenCancel().verify();
		await().untilTrue(completed);
		assertThat(read).hasValue(3);
		assertThat(cancelled).isFalse();
		StepVerifier.create(WholeResults.drained(Flux.just(1, 2))).verifyComplete();
	}

	@Test
	void readsEveryRowAfterTheFirst() {
		AtomicInteger read = new AtomicInteger();
		AtomicBoolean cancelled = new AtomicBoolean();
		Flux<Integer> rows = Flux.range(1, 10)
			.doOnNext((row) -> read.incrementAndGet())
			.doOnCancel(() -> cancelled.set(true));
		StepVerifier.create(WholeResults.first(rows)).expectNext(1).verifyComplete();
		assertThat(read).hasValue(10);
		assertThat(cancelled).isFalse();
	}

}
