package dev.junction.messaging.db;

import java.time.Duration;

import dev.junction.database.DatabaseUrl;
import io.r2dbc.spi.ConnectionFactoryOptions;

import org.springframework.boot.flyway.autoconfigure.FlywayConnectionDetails;
import org.springframework.boot.flyway.autoconfigure.FlywayProperties;
import org.springframework.boot.jdbc.autoconfigure.JdbcConnectionDetails;
import org.springframework.boot.r2dbc.autoconfigure.R2dbcConnectionDetails;
import org.springframework.boot.r2dbc.autoconfigure.R2dbcProperties;
import org.springframework.util.StringUtils;

/**
 * Where Spring Boot's R2DBC pool and Flyway connect: the database of
 * {@code spring.r2dbc.url} (an embedded H2 file at {@value #DEFAULT_H2_PATH} when unset),
 * H2 in PostgreSQL mode, and the same database over JDBC for Flyway unless
 * {@code spring.flyway.url} says otherwise.
 */
public final class DatabaseConnectionDetails
		implements R2dbcConnectionDetails, FlywayConnectionDetails, JdbcConnectionDetails {

	/** The H2 file used when no database is configured. */
	public static final String DEFAULT_H2_PATH = "./data/messaging";

	/** The {@code application_name} of the pool's PostgreSQL connections. */
	public static final String APPLICATION_NAME = "junction-messaging";

	/** The {@code application_name} of the connections that LISTEN. */
	public static final String LISTENER_APPLICATION_NAME = "junction-messaging-listener";

	private final DatabaseUrl database;

	private final Duration connectTimeout;

	private final FlywayProperties flyway;

	DatabaseConnectionDetails(R2dbcProperties r2dbc, FlywayProperties flyway) {
		this.database = StringUtils.hasText(r2dbc.getUrl())
				? DatabaseUrl.parse("spring.r2dbc.url", r2dbc.getUrl(), r2dbc.getUsername(), r2dbc.getPassword())
				: DatabaseUrl.h2File(DEFAULT_H2_PATH, r2dbc.getUsername(), r2dbc.getPassword());
		Duration create = r2dbc.getPool().getMaxCreateConnectionTime();
		this.connectTimeout = (create != null) ? create : Duration.ofSeconds(5);
		this.flyway = flyway;
	}

	/** The database, as configured. */
	public DatabaseUrl database() {
		return this.database;
	}

	/**
	 * The longest wait for a new connection
	 * ({@code spring.r2dbc.pool.max-create-connection-time}).
	 */
	public Duration connectTimeout() {
		return this.connectTimeout;
	}

	@Override
	public ConnectionFactoryOptions getConnectionFactoryOptions() {
		return this.database.r2dbcOptions(APPLICATION_NAME, this.connectTimeout);
	}

	@Override
	public String getJdbcUrl() {
		return StringUtils.hasText(this.flyway.getUrl()) ? this.flyway.getUrl() : this.database.jdbcUrl();
	}

	@Override
	public String getUsername() {
		return StringUtils.hasText(this.flyway.getUser()) ? this.flyway.getUser() : this.database.username();
	}

	@Override
	public String getPassword() {
		return (this.flyway.getPassword() != null) ? this.flyway.getPassword() : this.database.password();
	}

	@Override
	public String getDriverClassName() {
		return StringUtils.hasText(this.flyway.getDriverClassName()) ? this.flyway.getDriverClassName()
				: JdbcConnectionDetails.super.getDriverClassName();
	}

	@Override
	public String toString() {
		return this.database.describe();
	}

}
