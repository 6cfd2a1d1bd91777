package dev.junction.messaging.common;

import java.time.Duration;

import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

/**
 * General settings of the messaging service.
 *
 * @param adminKey the first admin API key; when unset and no admin key exists, a random
 * one is logged once
 * @param http limits on inbound requests
 * @param apiKeyCacheTtl how long a validated API key is cached
 * @param sseHeartbeat interval of the comment lines that keep event streams open
 */
@Validated
@ConfigurationProperties(MessagingProperties.PREFIX)
public record MessagingProperties(String adminKey, @Valid @DefaultValue Http http,
		@NotNull @DefaultValue("60s") Duration apiKeyCacheTtl, @NotNull @DefaultValue("15s") Duration sseHeartbeat) {

	/** Prefix of these properties. */
	public static final String PREFIX = "junction.messaging";

	/**
	 * Limits on inbound HTTP requests.
	 *
	 * @param maxBodySize largest request body accepted; larger ones are answered with 413
	 * @param readTimeout longest wait for the next part of a request body; a body that
	 * stops arriving gets 408 and the connection is closed
	 * @param requestTimeout time after which a request is answered with 408
	 */
	public record Http(@NotNull @DefaultValue("10MB") DataSize maxBodySize,
			@NotNull @DefaultValue("30s") Duration readTimeout, @NotNull @DefaultValue("30s") Duration requestTimeout) {
	}

}
