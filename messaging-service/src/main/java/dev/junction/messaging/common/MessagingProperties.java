package dev.junction.messaging.common;

import java.time.Duration;

import jakarta.validation.constraints.NotNull;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

/**
 * General settings of the messaging service.
 *
 * @param adminKey the first admin API key; when unset and no admin key exists, a random one is logged once
 * @param requestTimeout time after which a request is answered with 408
 * @param maxBodySize largest request body accepted; larger ones are answered with 413
 * @param apiKeyCacheTtl how long a validated API key is cached
 * @param sseHeartbeat interval of the comment lines that keep event streams open
 */
@Validated
@ConfigurationProperties(MessagingProperties.PREFIX)
public record MessagingProperties(String adminKey, @NotNull @DefaultValue("30s") Duration requestTimeout,
		@NotNull @DefaultValue("10MB") DataSize maxBodySize, @NotNull @DefaultValue("60s") Duration apiKeyCacheTtl,
		@NotNull @DefaultValue("15s") Duration sseHeartbeat) {

	/** Prefix of these properties. */
	public static final String PREFIX = "junction.messaging";

}
