package dev.junction.messaging.db;

import java.time.Duration;

import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Where the data lives.
 *
 * @param url PostgreSQL URL ({@code postgresql://user:pass@host:5432/db}, {@code jdbc:postgresql://...}
 * or {@code r2dbc:postgresql://...}), or an H2 URL ({@code jdbc:h2:...}); unset means embedded H2 in {@link #h2Path}
 * @param username user name, when the URL carries none
 * @param password password, when the URL carries none
 * @param h2Path file (without extension) of the embedded H2 database used when {@link #url} is unset
 * @param poolInitialSize connections opened at start-up
 * @param poolMaxSize largest number of open connections
 * @param poolMaxAcquireTime longest wait for a free connection before the request fails
 * @param connectTimeout longest wait for a new connection to the database
 */
@Validated
@ConfigurationProperties(DatabaseProperties.PREFIX)
public record DatabaseProperties(String url, String username, String password,
		@NotBlank @DefaultValue("./data/messaging") String h2Path, @Min(0) @DefaultValue("2") int poolInitialSize,
		@Min(1) @DefaultValue("20") int poolMaxSize, @NotNull @DefaultValue("5s") Duration poolMaxAcquireTime,
		@NotNull @DefaultValue("5s") Duration connectTimeout) {

	/** Prefix of these properties. */
	public static final String PREFIX = "junction.messaging.db";

}
