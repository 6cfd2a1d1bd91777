package dev.junction.gateway.support;

import java.time.Duration;
import java.util.ServiceLoader;
import java.util.concurrent.CountDownLatch;

import dev.junction.testsupport.EventLoopLocks;
import org.junit.jupiter.api.Test;
import reactor.blockhound.integration.BlockHoundIntegration;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import reactor.test.StepVerifier;

import org.springframework.util.function.SingletonSupplier;

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
	void letsANonBlockingThreadWaitForASingletonSupplierMakingItsValue() throws Exception {
		CountDownLatch making = new CountDownLatch(1);
		CountDownLatch made = new CountDownLatch(1);
		SingletonSupplier<String> supplier = SingletonSupplier.of(() -> {
			making.countDown();
			try {
				made.await();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			return "value";
		});
		Thread maker = new Thread(supplier::get);
		maker.start();
		making.await();
		StepVerifier.create(Mono.fromSupplier(supplier::get).subscribeOn(Schedulers.parallel())).then(() -> {
			try {
				// The parallel thread reaches the supplier's lock and waits there.
				Thread.sleep(200);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			made.countDown();
		}).expectNext("value").expectComplete().verify(Duration.ofSeconds(5));
		maker.join();
	}

	@Test
	void findsTheLocksEventLoopsMayWaitOn() {
		assertThat(ServiceLoader.load(BlockHoundIntegration.class)).anyMatch(EventLoopLocks.class::isInstance)
			.anyMatch(LettuceLocks.class::isInstance);
	}

}
