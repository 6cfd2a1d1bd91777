package dev.junction.messaging.seed;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * What the seeding command creates
 * ({@code --junction.messaging.seed.instances=10 --junction.messaging.seed.chats=1000
 * --junction.messaging.seed.messages=1000000}).
 *
 * @param instances instances to create
 * @param chats chats to create, spread over the instances
 * @param messages messages to create, spread over the chats
 * @param events extra {@code message.received} events to create
 * @param days how far back the message timestamps reach
 * @param batchSize rows per multi-row insert (H2) or per COPY buffer (PostgreSQL)
 */
@Validated
@ConfigurationProperties(SeedProperties.PREFIX)
public record SeedProperties(@Min(0) @DefaultValue("0") int instances, @Min(0) @DefaultValue("0") int chats,
		@Min(0) @DefaultValue("0") long messages, @Min(0) @DefaultValue("0") long events,
		@Min(1) @DefaultValue("30") int days, @Min(1) @Max(5000) @DefaultValue("1000") int batchSize) {

	/** Prefix of these properties (command-line arguments). */
	public static final String PREFIX = "junction.messaging.seed";

	/** Whether the command has anything to do. */
	public boolean requested() {
		return this.instances > 0 || this.chats > 0 || this.messages > 0 || this.events > 0;
	}

}
