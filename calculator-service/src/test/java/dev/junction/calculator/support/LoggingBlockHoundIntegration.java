package dev.junction.calculator.support;

import reactor.blockhound.BlockHound;
import reactor.blockhound.integration.BlockHoundIntegration;

/**
 * What may wait briefly on a lock on an event loop in tests: log appenders writing to the
 * console. Everything else must not block.
 */
public final class LoggingBlockHoundIntegration implements BlockHoundIntegration {

	@Override
	public void applyTo(BlockHound.Builder builder) {
		builder.allowBlockingCallsInside("ch.qos.logback.core.OutputStreamAppender", "writeBytes");
		builder.allowBlockingCallsInside("ch.qos.logback.core.OutputStreamAppender", "append");
	}

}
