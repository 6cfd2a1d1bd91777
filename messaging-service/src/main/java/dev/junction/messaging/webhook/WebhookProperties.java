package dev.junction.messaging.webhook;

import java.time.Duration;

import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Outbound webhook deliveries.
 *
 * @param maxAttempts attempts per delivery before it becomes a dead letter
 * @param baseDelay delay before the first retry; each later retry waits about twice as long
 * @param maxDelay longest delay between two attempts
 * @param timeout longest wait for a receiver's answer
 * @param concurrency deliveries in flight at once
 * @param deadLetterCountInterval how often the dead letters are counted for the metrics
 */
@Validated
@ConfigurationProperties(WebhookProperties.PREFIX)
public record WebhookProperties(@Min(1) @DefaultValue("5") int maxAttempts,
		@NotNull @DefaultValue("1s") Duration baseDelay, @NotNull @DefaultValue("5m") Duration maxDelay,
		@NotNull @DefaultValue("10s") Duration timeout, @Min(1) @DefaultValue("64") int concurrency,
		@NotNull @DefaultValue("30s") Duration deadLetterCountInterval) {

	/** Prefix of these properties. */
	public static final String PREFIX = "junction.messaging.webhooks";

}
