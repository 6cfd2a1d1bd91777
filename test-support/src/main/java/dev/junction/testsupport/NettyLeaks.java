package dev.junction.testsupport;

import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.util.ResourceLeakDetector;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Fails a test class when a Netty buffer was garbage-collected without being released,
 * whether the service or the test's own client dropped it. Every buffer is tracked (the
 * detector's paranoid level, set for the whole run); a leak is reported only once its
 * buffer has been collected and another buffer is allocated, so after each class this
 * collects garbage and allocates until the detector has seen what was dropped. A leak
 * whose buffer was still reachable at the end of its class (held by a connection that was
 * still open) fails the first class after it that sees it; the report names where the
 * buffer was made and last touched.
 */
public final class NettyLeaks implements AfterAllCallback {

	private static final Queue<String> leaks = new ConcurrentLinkedQueue<>();

	static {
		ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.PARANOID);
		ByteBufUtil.setLeakListener((type, records) -> leaks.add(type + records));
	}

	@Override
	public void afterAll(ExtensionContext context) throws InterruptedException {
		for (int round = 0; round < 2; round++) {
			System.gc();
			Thread.sleep(50);
			ByteBufAllocator.DEFAULT.directBuffer(8).release();
		}
		List<String> found = new ArrayList<>();
		for (String leak = leaks.poll(); leak != null; leak = leaks.poll()) {
			found.add(leak);
		}
		assertThat(found).as("Netty buffers collected without release()").isEmpty();
	}

}
