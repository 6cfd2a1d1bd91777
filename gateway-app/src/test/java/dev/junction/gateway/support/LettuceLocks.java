package dev.junction.gateway.support;

import reactor.blockhound.BlockHound;
import reactor.blockhound.integration.BlockHoundIntegration;

/**
 * Lettuce's endpoint lock may be waited on briefly on an event loop in the gateway's
 * tests: it guards a few field updates around each Redis write and is meant to be taken
 * there. (An error thrown inside it would leave it held.) The locks every module allows
 * are test-support's {@code EventLoopLocks}; everything else must not block.
 */
public final class LettuceLocks implements BlockHoundIntegration {

	@Override
	public void applyTo(BlockHound.Builder builder) {
		for (String method : new String[] { "incrementWriters", "decrementWriters", "lockWritersExclusive",
				"unlockWritersExclusive" }) {
			builder.allowBlockingCallsInside("io.lettuce.core.protocol.SharedLock", method);
		}
	}

}
