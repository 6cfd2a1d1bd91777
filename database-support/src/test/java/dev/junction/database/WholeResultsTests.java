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
		Query<Integer> query = new Query<>(Flux.range(1, 100));
		StepVerifier.create(WholeResults.all(query.rows()).take(3)).expectNext(1, 2, 3).verifyComplete();
		assertThat(query.read).hasValue(100);
		assertThat(query.completed).isTrue();
		assertThat(query.cancelled).isFalse();
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
		Query<String> query = new Query<>(Flux.just("row"));
		StepVerifier.create(WholeResults.one(query.rows())).expectNext("row").verifyComplete();
		assertThat(query.completed).isTrue();
		StepVerifier.create(WholeResults.one(Flux.empty())).verifyComplete();
	}

	@Test
	void refusesASecondRowWhereOneWasExpected() {
		StepVerifier.create(WholeResults.one(Flux.just(1, 2))).verifyError(IndexOutOfBoundsException.class);
	}

	@Test
	void readsTheOneRowAfterItsSubscriberCancels() {
		Query<String> query = new Query<>(Flux.just("row").delaySubscription(Duration.ofMillis(50)));
		StepVerifier.create(WholeResults.one(query.rows())).thenCancel().verify();
		await().untilTrue(query.completed);
		assertThat(query.cancelled).isFalse();
	}

	@Test
	void drainsTheRowsOfAStatementAfterItsSubscriberCancels() {
		Query<Integer> query = new Query<>(Flux.range(1, 3).delaySubscription(Duration.ofMillis(50)));
		StepVerifier.create(WholeResults.drained(query.rows())).thenCancel().verify();
		await().untilTrue(query.completed);
		assertThat(query.read).hasValue(3);
		assertThat(query.cancelled).isFalse();
		StepVerifier.create(WholeResults.drained(Flux.just(1, 2))).verifyComplete();
	}

	@Test
	void readsEveryRowAfterTheFirst() {
		Query<Integer> query = new Query<>(Flux.range(1, 10));
		StepVerifier.create(WholeResults.first(query.rows())).expectNext(1).verifyComplete();
		assertThat(query.read).hasValue(10);
		assertThat(query.cancelled).isFalse();
	}

	/**
	 * A query's rows, with how many were read and whether they were cancelled or ended.
	 */
	private static final class Query<T> {

		final AtomicInteger read = new AtomicInteger();

		final AtomicBoolean cancelled = new AtomicBoolean();

		final AtomicBoolean completed = new AtomicBoolean();

		private final Flux<T> source;

		Query(Flux<T> source) {
			this.source = source;
		}

		Flux<T> rows() {
			return this.source.doOnNext((row) -> this.read.incrementAndGet())
				.doOnCancel(() -> this.cancelled.set(true))
				.doOnComplete(() -> this.completed.set(true));
		}

	}

}
