package dev.junction.gateway.messages;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Anthropic Messages streams.
 *
 * @param pingInterval the longest a {@code /v1/messages} stream stays silent: when no
 * event has gone out for this long, a {@code ping} event does, so that proxies and
 * clients do not time out while the upstream thinks; 0 for none
 */
@ConfigurationProperties(MessagesProperties.PREFIX)
public record MessagesProperties(@DefaultValue("10s") Duration pingInterval) {

	public static final String PREFIX = "junction.gateway.messages";

	public MessagesProperties {
		if (pingInterval.isNegative()) {
			throw new IllegalStateException(PREFIX + ".ping-interval must not be negative");
		}
	}

}
