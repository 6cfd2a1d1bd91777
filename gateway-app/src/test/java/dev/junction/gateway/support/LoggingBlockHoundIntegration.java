package dev.junction.gateway.support;

import reactor.blockhound.BlockHound;
import reactor.blockhound.integration.BlockHoundIntegration;

/**
 * What may wait briefly on a lock on an event loop in tests: log appenders writing to the
 * console, Jackson building a (de)serializer once, Netty's buffer allocator adding a
 * magazine when its event loops contend for it, and Lettuce's endpoint lock, which guards
 * a few field updates around each Redis write and is meant to be taken on event loops.
 * Everything else must not block. (An error thrown inside Lettuce's lock would leave it
 * held.)
 */
public final class LoggingBlockHoundIntegration implements BlockHoundIntegration {

	@Override
	public void applyTo(BlockHound.Builder builder) {
		builder.allowBlockingCallsInside("ch.qos.logback.core.OutputStreamAppender", "writeBytes");
		builder.allowBlockingCallsInside("ch.qos.logback.core.OutputStreamAppender", "append");
		builder.allowBlockingCallsInside("tools.jackson.databind.deser.DeserializerCache",
				"_createAndCacheValueDeserializer");
		builder.allowBlockingCallsInside("tools.jackson.databind.ser.SerializerCache",
				"addAndResolveNonTypedSerializer");
		builder.allowBlockingCallsInside("io.netty.buffer.AdaptivePoolingAllocator$MagazineGroup",
				"tryExpandMagazines");
		for (String method : new String[] { "incrementWriters", "decrementWriters", "lockWritersExclusive",
				"unlockWritersExclusive" }) {
			builder.allowBlockingCallsInside("io.lettuce.core.protocol.SharedLock", method);
		}
	}

}
