package dev.junction.gateway.support;

import reactor.blockhound.BlockHound;
import reactor.blockhound.integration.BlockHoundIntegration;

/**
 * Lets log appenders write to the console from event loops in tests, and Jackson take its
 * one-time lock while it builds a deserializer; everything else must not block.
 */
public final class LoggingBlockHoundIntegration implements BlockHoundIntegration {

	@Override
	public void applyTo(BlockHound.Builder builder) {
		builder.allowBlockingCallsInside("ch.qos.logback.core.OutputStreamAppender", "writeBytes");
		builder.allowBlockingCallsInside("ch.qos.logback.core.OutputStreamAppender", "append");
		builder.allowBlockingCallsInside("tools.jackson.databind.deser.DeserializerCache",
				"_createAndCacheValueDeserializer");
		builder.allowBlockingCallsInside("tools.jackson.databind.ser.SerializerCache", "addAndResolveNonTypedSerializer");
	}

}
