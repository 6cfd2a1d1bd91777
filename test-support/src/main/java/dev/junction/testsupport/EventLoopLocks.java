package dev.junction.testsupport;

import reactor.blockhound.BlockHound;
import reactor.blockhound.integration.BlockHoundIntegration;

/**
 * What may wait briefly on a lock on an event loop in the tests of every module that
 * installs BlockHound: log appenders writing to the console, Jackson building a
 * (de)serializer once, Spring's {@code SingletonSupplier} making its value once (threads
 * that ask meanwhile wait for it: Boot's Prometheus exemplars look up the tracer so when
 * the first two timers stop at once), and Netty's buffer allocator adding a magazine when
 * its event loops contend for it (it takes a magazine's lock to hand back what it tried
 * with). Everything else must not block. Found by BlockHound through
 * {@code META-INF/services}.
 */
public final class EventLoopLocks implements BlockHoundIntegration {

	@Override
	public void applyTo(BlockHound.Builder builder) {
		builder.allowBlockingCallsInside("ch.qos.logback.core.OutputStreamAppender", "writeBytes");
		builder.allowBlockingCallsInside("ch.qos.logback.core.OutputStreamAppender", "append");
		builder.allowBlockingCallsInside("tools.jackson.databind.deser.DeserializerCache",
				"_createAndCacheValueDeserializer");
		builder.allowBlockingCallsInside("tools.jackson.databind.ser.SerializerCache",
				"addAndResolveNonTypedSerializer");
		builder.allowBlockingCallsInside("org.springframework.util.function.SingletonSupplier", "get");
		builder.allowBlockingCallsInside("io.netty.buffer.AdaptivePoolingAllocator$MagazineGroup",
				"tryExpandMagazines");
	}

}
