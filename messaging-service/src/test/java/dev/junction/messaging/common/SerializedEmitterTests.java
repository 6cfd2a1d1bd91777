package dev.junction.messaging.common;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import reactor.core.Disposable;
import reactor.core.publisher.Sinks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class SerializedEmitterTests {

	@Test
	void deliversEveryValueEmittedFromManyThreadsAtOnce() throws Exception {
		List<Sinks.EmitResult> failures = new CopyOnWriteArrayList<>();
		SerializedEmitter<Integer> emitter = new SerializedEmitter<>(Sinks.many().multicast().directBestEffort(),
				(value, result) -> failures.add(result));
		List<Integer> received = new CopyOnWriteArrayList<>();
		Disposable subscription = emitter.asFlux().subscribe(received::add);
		ExecutorService threads = Executors.newFixedThreadPool(8);
		try {
			CountDownLatch start = new CountDownLatch(1);
			for (int t = 0; t < 8; t++) {
				int base = t * 10_000;
				threads.execute(() -> {
					awaitQuietly(start);
					for (int i = 0; i < 10_000; i++) {
						emitter.emit(base + i);
					}
				});
			}
			start.countDown();
			threads.shutdown();
			assertThat(threads.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
		}
		finally {
			threads.shutdownNow();
			subscription.dispose();
		}
		assertThat(failures).isEmpty();
		assertThat(received).hasSize(80_000).doesNotHaveDuplicates();
	}

	@Test
	void anEmitterNeverWaitsForAnotherOnesSubscribers() throws Exception {
		SerializedEmitter<String> emitter = new SerializedEmitter<>(Sinks.many().multicast().directBestEffort(),
				(value, result) -> {
				});
		CountDownLatch inSubscriber = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		List<String> received = new CopyOnWriteArrayList<>();
		Disposable subscription = emitter.asFlux().subscribe((value) -> {
			if (value.equals("slow")) {
				inSubscriber.countDown();
				awaitQuietly(release);
			}
			received.add(value);
		});
		Thread slow = new Thread(() -> emitter.emit("slow"));
		try {
			slow.start();
			assertThat(inSubscriber.await(10, TimeUnit.SECONDS)).isTrue();
			Thread fast = new Thread(() -> emitter.emit("fast"));
			fast.start();
			fast.join(Duration.ofSeconds(10).toMillis());
			assertThat(fast.isAlive()).as("second emitter still waiting").isFalse();
			assertThat(received).isEmpty();
		}
		finally {
			release.countDown();
			slow.join(5_000);
			subscription.dispose();
		}
		await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(received).containsExactly("slow", "fast"));
	}

	private static void awaitQuietly(CountDownLatch latch) {
		try {
			latch.await(30, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
