package dev.junction.calculator.server;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Where gRPC calls run once Netty has decoded them.
 *
 * @param type direct (on the Netty event loop that read the call) or pool (a fixed pool)
 * @param threads size of the pool in pool mode; 0 means one per available processor
 */
@ConfigurationProperties(ExecutorProperties.PREFIX)
public record ExecutorProperties(@DefaultValue("direct") Type type, @DefaultValue("0") int threads) {

	/** Prefix of these properties. */
	public static final String PREFIX = "junction.calculator.executor";

	/** The executor kinds. */
	public enum Type {

		/** Run calls on the transport thread: fastest, for handlers that never block. */
		DIRECT,

		/** Run calls on a fixed work-stealing pool: for handlers that may block. */
		POOL

	}

}
