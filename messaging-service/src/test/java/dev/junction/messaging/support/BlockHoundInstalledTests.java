package dev.junction.messaging.support;

import java.time.Duration;
import java.util.ServiceLoader;

import dev.junction.testsupport.EventLoopLocks;
import org.junit.jupiter.api.Test;
import reactor.blockhound.integration.BlockHoundIntegration;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import reactor.test.StepVerifier;

import static org.assertj.core.api.Assertions.assertThat;

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

	@Test
	void findsTheLocksEventLoopsMayWaitOn() {
		assertThat(ServiceLoader.load(BlockHoundIntegration.class)).anyMatch(EventLoopLocks.class::isInstance);
	}

}
