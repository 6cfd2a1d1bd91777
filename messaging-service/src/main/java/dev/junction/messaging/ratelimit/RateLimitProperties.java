package dev.junction.messaging.ratelimit;

import java.time.Duration;

import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Requests allowed per API key and route group in each window.
 *
 * @param enabled whether rate limits apply
 * @param window the window the limits refill over
 * @param messages limit for {@code /messages} and {@code /chats/{id}/messages}
 * @param events limit for {@code /events}
 * @param instances limit for {@code /instances}
 * @param general limit for every other authenticated route
 * @param failOpen whether requests pass (true) or fail with 503 (false) when the bucket
 * store is unreachable
 */
@Validated
@ConfigurationProperties(RateLimitProperties.PREFIX)
public record RateLimitProperties(@DefaultValue("true") boolean enabled, @NotNull @DefaultValue("1m") Duration window,
		@Min(1) @DefaultValue("60") long messages, @Min(1) @DefaultValue("100") long events,
		@Min(1) @DefaultValue("30") long instances, @Min(1) @DefaultValue("1000") long general,
		@DefaultValue("true") boolean failOpen) {

	/** Prefix of these properties. */
	public static final String PREFIX = "junction.messaging.rate-limit";

	/** The limit of {@code group}. */
	public long limit(RouteGroup group) {
		return switch (group) {
			case MESSAGES -> this.messages;
			case EVENTS -> this.events;
			case INSTANCES -> this.instances;
			case GENERAL -> this.general;
		};
	}

}
