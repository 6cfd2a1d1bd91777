package dev.junction.messaging.event;

import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import reactor.core.Disposable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class EventBusTests {

	private final EventBus bus = new EventBus();

	@Test
	void aPublisherNeverWaitsWhileAnotherOnesEventIsBeingHandedOn() throws Exception {
		Event first = event("first");
		Event second = event("second");
		CountDownLatch handling = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		List<String> received = new CopyOnWriteArrayList<>();
		Disposable subscription = this.bus.events().subscribe((event) -> {
			if (event == first) {
				handling.countDown();
				awaitQuietly(release);
			}
			received.add(event.type());
		});
		Thread slow = new Thread(() -> this.bus.publish(first));
		try {
			slow.start();
			assertThat(handling.await(5, TimeUnit.SECONDS)).isTrue();
			Thread other = new Thread(() -> this.bus.publish(second));
			other.start();
			other.join(2_000);
			assertThat(other.isAlive()).as("second publisher blocked by the first one's subscriber").isFalse();
		}
		finally {
			release.countDown();
			slow.join(5_000);
		}
		await().untilAsserted(() -> assertThat(received).containsExactly("first", "second"));
		subscription.dispose();
	}

	private static Event event(String type) {
		return new Event(UUID.randomUUID(), type, UUID.randomUUID(), UUID.randomUUID(), "{}", Instant.now());
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
