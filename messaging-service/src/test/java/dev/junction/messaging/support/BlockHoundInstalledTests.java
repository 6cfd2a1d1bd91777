package dev.junction.messaging.support;

import java.time.Duration;

import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import reactor.test.StepVerifier;

/**
 * The test run fails any blocking call on a non-blocking thread: this proves the check is
 * live.
 */
class BlockHoundInstalledTests {

	@Test
	void detectsBlockingOnANonBlockingThread() {
		StepVerifier.create(Mono.fromCallable(() -> {
			Thread.sleep(1);
			return "slept";
		}).subscribeOn(Schedulers.parallel()))
			.expectErrorMatches((error) -> error.getClass().getSimpleName().equals("BlockingOperationError"))
			.verify(Duration.ofSeconds(5));
	}

}
