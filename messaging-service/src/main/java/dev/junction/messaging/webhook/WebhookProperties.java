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
 * @param baseDelay delay before the first retry; each later retry waits about twice as
 * long
 * @param maxDelay longest delay between two attempts
 * @param timeout longest wait for a receiver's answer
 * @param concurrency deliveries in flight at once
 * @param deadLetterCountInterval how often the dead letters are counted for the metrics
 * @param leaseTime how long an instance holds a delivery it attempts (longer than
 * {@code timeout}); another instance takes it over after that if the holder died
 * @param pollInterval how often due deliveries are looked for besides the wake-ups on new
 * ones
 */
@Validated
@ConfigurationProperties(WebhookProperties.PREFIX)
public record WebhookProperties(@Min(1) @DefaultValue("5") int maxAttempts,
		@NotNull @DefaultValue("1s") Duration baseDelay, @NotNull @DefaultValue("5m") Duration maxDelay,
		@NotNull @DefaultValue("10s") Duration timeout, @Min(1) @DefaultValue("64") int concurrency,
		@NotNull @DefaultValue("30s") Duration deadLetterCountInterval,
		@NotNull @DefaultValue("60s") Duration leaseTime, @NotNull @DefaultValue("1s") Duration pollInterval) {

	public WebhookProperties {
		if (leaseTime != null && timeout != null && leaseTime.compareTo(timeout.plusSeconds(1)) < 0) {
			throw new IllegalArgumentException(
					PREFIX + ".lease-time (" + leaseTime + ") must exceed " + PREFIX + ".timeout (" + timeout
							+ ") by at least a second, or two instances could attempt one delivery at once");
		}
	}

	/** Prefix of these properties. */
	public static final String PREFIX = "junction.messaging.webhooks";

}
