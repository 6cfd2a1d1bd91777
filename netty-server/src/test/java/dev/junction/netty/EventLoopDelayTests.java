package dev.junction.netty;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.local.LocalIoHandler;
import io.netty.util.concurrent.EventExecutor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class EventLoopDelayTests {

	private final EventLoopGroup loops = new MultiThreadIoEventLoopGroup(2, LocalIoHandler.newFactory());

	@AfterEach
	void stop() {
		this.loops.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
	}

	@Test
	void anIdleLoopRunsItsProbeInTime() throws Exception {
		try (EventLoopDelay delay = new EventLoopDelay(this.loops, Duration.ofMillis(5))) {
			Thread.sleep(100);
			assertThat(delay.largestNanos()).isLessThan(Duration.ofMillis(20).toNanos());
		}
	}

	@Test
	void aLoopGivenMoreWorkThanItCanDoIsLateUntilItCatchesUp() {
		try (EventLoopDelay delay = new EventLoopDelay(this.loops, Duration.ofMillis(5))) {
			EventExecutor busy = this.loops.next();
			long until = System.nanoTime() + Duration.ofMillis(600).toNanos();
			busy.execute(new Runnable() {
				@Override
				public void run() {
					spin(Duration.ofMillis(60));
					if (System.nanoTime() < until) {
						busy.schedule(this, 1, TimeUnit.MILLISECONDS);
					}
				}
			});
			await().atMost(Duration.ofSeconds(2)).until(() -> delay.largestNanos() > Duration.ofMillis(40).toNanos());
			// On the busy loop, its own delay.
			long onBusy = busy.submit(delay::currentNanos).syncUninterruptibly().getNow();
			assertThat(onBusy).isGreaterThan(Duration.ofMillis(40).toNanos());
			await().atMost(Duration.ofSeconds(2)).until(() -> delay.largestNanos() < Duration.ofMillis(20).toNanos());
		}
	}

	@Test
	void aSingleLateRunIsNotABacklog() throws Exception {
		try (EventLoopDelay delay = new EventLoopDelay(this.loops, Duration.ofMillis(50))) {
			EventExecutor loop = this.loops.next();
			loop.submit(() -> spin(Duration.ofMillis(200))).syncUninterruptibly();
			// The probe due during the stall has run, late; the next one is not due yet.
			Thread.sleep(15);
			assertThat(loop.submit(delay::currentNanos).syncUninterruptibly().getNow())
				.isLessThan(Duration.ofMillis(100).toNanos());
		}
	}

	@Test
	void closedProbesStopRunning() throws Exception {
		EventLoopDelay delay = new EventLoopDelay(this.loops, Duration.ofMillis(5));
		delay.close();
		this.loops.next().submit(() -> spin(Duration.ofMillis(100))).syncUninterruptibly();
		Thread.sleep(20);
		assertThat(delay.largestNanos()).as("no probe ran late after close")
			.isLessThan(Duration.ofMillis(50).toNanos());
	}

	private static void spin(Duration duration) {
		long end = System.nanoTime() + duration.toNanos();
		while (System.nanoTime() < end) {
			Thread.onSpinWait();
		}
	}

}
