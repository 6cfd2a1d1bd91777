package dev.junction.gateway.provider;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.junction.gateway.error.DeniedException;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import reactor.test.StepVerifier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class ProviderLimiterTests {

	private final MeterRegistry registry = new SimpleMeterRegistry();

	private final ProviderLimiter limiter = new ProviderLimiter("p", 1, 2, Duration.ofSeconds(30), true);

	@Test
	void gaugesFollowCallsInFlightAndWaiting() {
		this.limiter.bindTo(this.registry);
		ProviderLimiter.Permit permit = this.limiter.acquire().block(Duration.ofSeconds(1));
		assertThat(gauge(ProviderLimiter.IN_FLIGHT)).isEqualTo(1.0);
		assertThat(gauge(ProviderLimiter.WAITING)).isEqualTo(0.0);

		Disposable waiter = this.limiter.acquire().subscribe();
		assertThat(gauge(ProviderLimiter.WAITING)).isEqualTo(1.0);
		waiter.dispose();
		assertThat(gauge(ProviderLimiter.WAITING)).isEqualTo(0.0);

		permit.release();
		assertThat(gauge(ProviderLimiter.IN_FLIGHT)).isEqualTo(0.0);
	}

	@Test
	void metersAreTaggedWithTheProvider() {
		this.limiter.bindTo(this.registry);
		assertThat(this.registry.get(ProviderLimiter.IN_FLIGHT).tag("provider", "p").gauge()).isNotNull();
		assertThat(this.registry.get(ProviderLimiter.WAITING).tag("provider", "p").gauge()).isNotNull();
		assertThat(this.registry.get(ProviderLimiter.QUEUE_WAIT).tag("provider", "p").timer()).isNotNull();
	}

	@Test
	void callsBeyondTheConcurrencyWaitAndGetFreedPermitsInArrivalOrder() {
		ProviderLimiter.Permit first = acquireNow(this.limiter);
		List<String> granted = new CopyOnWriteArrayList<>();
		List<ProviderLimiter.Permit> permits = new CopyOnWriteArrayList<>();
		this.limiter.acquire().subscribe((permit) -> {
			granted.add("second");
			permits.add(permit);
		});
		this.limiter.acquire().subscribe((permit) -> {
			granted.add("third");
			permits.add(permit);
		});
		assertThat(granted).isEmpty();
		assertThat(this.limiter.waiting()).isEqualTo(2);
		assertThat(this.limiter.inFlight()).isEqualTo(1);

		first.release();
		assertThat(granted).containsExactly("second");
		assertThat(this.limiter.waiting()).isEqualTo(1);
		assertThat(this.limiter.inFlight()).isEqualTo(1);

		permits.get(0).release();
		assertThat(granted).containsExactly("second", "third");
		assertThat(this.limiter.waiting()).isZero();

		permits.get(1).release();
		assertThat(this.limiter.inFlight()).isZero();
	}

	@Test
	void refusesACallFindingTheQueueFullWithTheQueuesDenial() {
		acquireNow(this.limiter);
		Disposable second = this.limiter.acquire().subscribe();
		Disposable third = this.limiter.acquire().subscribe();
		StepVerifier.create(this.limiter.acquire())
			.expectErrorSatisfies(
					(error) -> assertThat(error).isInstanceOfSatisfying(DeniedException.class, (denied) -> {
						assertThat(denied.limiter()).isEqualTo("provider_queue");
						assertThat(denied.status()).isEqualTo(503);
						assertThat(denied.retryAfter()).isEqualTo(Duration.ofSeconds(1));
						assertThat(denied.getMessage()).contains("'p'").contains("queue is full");
					}))
			.verify(Duration.ofSeconds(5));
		assertThat(this.limiter.waiting()).isEqualTo(2);
		assertThat(this.limiter.inFlight()).isEqualTo(1);
		second.dispose();
		third.dispose();
	}

	@Test
	void withoutDropExcessACallFindingTheQueueFullWaitsAnyway() {
		ProviderLimiter waitsAnyway = new ProviderLimiter("p", 1, 1, Duration.ofSeconds(30), false);
		ProviderLimiter.Permit first = acquireNow(waitsAnyway);
		Disposable second = waitsAnyway.acquire().subscribe();
		List<ProviderLimiter.Permit> third = new CopyOnWriteArrayList<>();
		waitsAnyway.acquire().subscribe(third::add);
		assertThat(waitsAnyway.waiting()).isEqualTo(2);
		second.dispose();
		first.release();
		assertThat(third).hasSize(1);
		assertThat(waitsAnyway.waiting()).isZero();
		assertThat(waitsAnyway.inFlight()).isEqualTo(1);
	}

	@Test
	void refusesACallThatWaitedLongerThanTheMaxQueueWaitAndTakesItOutOfTheQueue() {
		ProviderLimiter limiter = new ProviderLimiter("p", 1, 2, Duration.ofSeconds(10), true);
		ProviderLimiter.Permit first = acquireNow(limiter);
		StepVerifier.withVirtualTime(limiter::acquire)
			.expectSubscription()
			.then(() -> assertThat(limiter.waiting()).isEqualTo(1))
			.expectNoEvent(Duration.ofMillis(9_999))
			.thenAwait(Duration.ofMillis(1))
			.expectErrorSatisfies(
					(error) -> assertThat(error).isInstanceOfSatisfying(DeniedException.class, (denied) -> {
						assertThat(denied.limiter()).isEqualTo("provider_queue");
						assertThat(denied.getMessage()).contains("within 10000 ms");
					}))
			.verify(Duration.ofSeconds(5));
		assertThat(limiter.waiting()).isZero();
		first.release();
		assertThat(limiter.inFlight()).isZero();
	}

	@Test
	void aWaitingCallCancelledLeavesTheQueueAndTakesNoPermit() {
		ProviderLimiter.Permit first = acquireNow(this.limiter);
		List<ProviderLimiter.Permit> cancelledGot = new CopyOnWriteArrayList<>();
		Disposable cancelled = this.limiter.acquire().subscribe(cancelledGot::add);
		List<ProviderLimiter.Permit> next = new CopyOnWriteArrayList<>();
		this.limiter.acquire().subscribe(next::add);
		cancelled.dispose();
		assertThat(this.limiter.waiting()).isEqualTo(1);

		first.release();
		assertThat(cancelledGot).isEmpty();
		assertThat(next).hasSize(1);
		assertThat(this.limiter.inFlight()).isEqualTo(1);
		next.get(0).release();
		assertThat(this.limiter.inFlight()).isZero();
		assertThat(this.limiter.waiting()).isZero();
	}

	@Test
	void aPermitReleasedTwiceFreesOneSlot() {
		ProviderLimiter limiter = new ProviderLimiter("p", 2, 0, Duration.ofSeconds(30), true);
		ProviderLimiter.Permit first = acquireNow(limiter);
		acquireNow(limiter);
		first.release();
		first.release();
		assertThat(limiter.inFlight()).isEqualTo(1);
		acquireNow(limiter);
		StepVerifier.create(limiter.acquire()).expectError(DeniedException.class).verify(Duration.ofSeconds(5));
	}

	@RepeatedTest(20)
	void concurrentCallsCancelledAtRandomNeverExceedTheConcurrencyAndLeaveNoPermitOrWaiterBehind() {
		int concurrency = 4;
		ProviderLimiter limiter = new ProviderLimiter("p", concurrency, 10_000, Duration.ofSeconds(30), true);
		AtomicInteger holding = new AtomicInteger();
		AtomicInteger mostHolding = new AtomicInteger();
		AtomicInteger calls = new AtomicInteger();
		List<Disposable> subscriptions = new CopyOnWriteArrayList<>();
		int requests = 2_000;
		Flux.range(0, requests).parallel().runOn(Schedulers.parallel()).subscribe((i) -> {
			Flux<Integer> call = limiter.withPermit(() -> {
				mostHolding.accumulateAndGet(holding.incrementAndGet(), Math::max);
				calls.incrementAndGet();
				return Mono.delay(Duration.ofMillis(ThreadLocalRandom.current().nextInt(3)))
					.thenReturn(i)
					// Before the permit goes back: doFinally would run after it.
					.doOnTerminate(holding::decrementAndGet)
					.doOnCancel(holding::decrementAndGet);
			});
			Disposable subscription = call.subscribeOn(Schedulers.parallel()).subscribe();
			subscriptions.add(subscription);
			if (i % 2 == 0) {
				Schedulers.parallel()
					.schedule(subscription::dispose, ThreadLocalRandom.current().nextInt(2), TimeUnit.MILLISECONDS);
			}
		});
		await().atMost(Duration.ofSeconds(30)).until(() -> subscriptions.size() == requests);
		await().atMost(Duration.ofSeconds(30))
			.untilAsserted(() -> assertThat(subscriptions).allMatch(Disposable::isDisposed));
		await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
			assertThat(limiter.inFlight()).isZero();
			assertThat(limiter.waiting()).isZero();
		});
		assertThat(mostHolding.get()).isLessThanOrEqualTo(concurrency);
		assertThat(calls.get()).isPositive();
		for (int i = 0; i < concurrency; i++) {
			acquireNow(limiter);
		}
		assertThat(limiter.inFlight()).isEqualTo(concurrency);
	}

	private static ProviderLimiter.Permit acquireNow(ProviderLimiter limiter) {
		List<ProviderLimiter.Permit> permit = new CopyOnWriteArrayList<>();
		limiter.acquire().subscribe(permit::add);
		assertThat(permit).as("a permit granted at once").hasSize(1);
		return permit.get(0);
	}

	private double gauge(String name) {
		return this.registry.get(name).gauge().value();
	}

}
