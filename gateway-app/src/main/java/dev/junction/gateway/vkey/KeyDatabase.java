package dev.junction.gateway.vkey;

import java.sql.SQLException;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import io.r2dbc.h2.H2ConnectionConfiguration;
import io.r2dbc.h2.H2ConnectionFactory;
import io.r2dbc.pool.ConnectionPool;
import io.r2dbc.pool.ConnectionPoolConfiguration;
import io.r2dbc.postgresql.PostgresqlConnectionConfiguration;
import io.r2dbc.postgresql.PostgresqlConnectionFactory;
import io.r2dbc.postgresql.client.SSLMode;
import io.r2dbc.spi.ConnectionFactory;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The key database: migrated by Flyway over JDBC at start-up, then used through an R2DBC pool. */
final class KeyDatabase {

	private static final Logger logger = LoggerFactory.getLogger(KeyDatabase.class);

	/** H2's error code for a database file locked by another process. */
	private static final int H2_DATABASE_ALREADY_OPEN = 90020;

	private KeyDatabase() {
	}

	static ConnectionPool open(DatabaseUrl url, VirtualKeysProperties.Db db) {
		migrate(url);
		ConnectionFactory target = url.postgres() ? postgres(url, db, "junction-gateway") : new H2ConnectionFactory(
				H2ConnectionConfiguration.builder().url(url.database()).username(url.username()).password(url.password()).build());
		return new ConnectionPool(ConnectionPoolConfiguration.builder(target)
			.name("virtual-keys")
			.initialSize(1)
			.maxSize(db.poolMaxSize())
			// An idle H2 file would close and unlock: one connection stays so no second process opens it.
			.minIdle(url.postgres() ? 0 : 1)
			.maxAcquireTime(Duration.ofSeconds(5))
			.maxCreateConnectionTime(db.connectTimeout())
			.maxIdleTime(Duration.ofMinutes(10))
			.maxValidationTime(Duration.ofSeconds(2))
			.build());
	}

	private static void migrate(DatabaseUrl url) {
		Flyway flyway = Flyway.configure(KeyDatabase.class.getClassLoader())
			.dataSource(url.jdbcUrl(), url.username(), url.password())
			.locations("classpath:db/vkeys/common")
			.table("virtual_keys_schema_history")
			.load();
		try {
			flyway.migrate();
		}
		catch (FlywayException ex) {
			if (!url.postgres() && inUse(ex)) {
				throw new IllegalStateException("The H2 database " + url.describe() + " is in use by another process: "
						+ "only one gateway runs on an H2 file. Run several on PostgreSQL (" + VirtualKeysProperties.PREFIX
						+ ".db.url), or give this one its own " + VirtualKeysProperties.PREFIX + ".db.h2-path.", null);
			}
			throw ex;
		}
		logger.info("Virtual keys in {}", url.describe());
	}

	private static boolean inUse(Throwable ex) {
		for (Throwable cause = ex; cause != null; cause = cause.getCause()) {
			if (cause instanceof SQLException sql && sql.getErrorCode() == H2_DATABASE_ALREADY_OPEN) {
				return true;
			}
		}
		return false;
	}

	/** Connections to PostgreSQL, named {@code applicationName} in {@code pg_stat_activity}. */
	static PostgresqlConnectionFactory postgres(DatabaseUrl url, VirtualKeysProperties.Db db, String applicationName) {
		Map<String, String> options = new HashMap<>(url.options());
		PostgresqlConnectionConfiguration.Builder builder = PostgresqlConnectionConfiguration.builder()
			.host(url.host())
			.port(url.port())
			.database(url.database())
			.applicationName(applicationName)
			.connectTimeout(db.connectTimeout())
			.tcpKeepAlive(true);
		if (url.username() != null) {
			builder.username(url.username());
		}
		if (url.password() != null) {
			builder.password(url.password());
		}
		String sslMode = options.remove("sslmode");
		if (sslMode != null) {
			builder.sslMode(SSLMode.fromValue(sslMode));
		}
		String schema = options.remove("currentSchema");
		if (schema != null) {
			builder.schema(schema);
		}
		if (!options.isEmpty()) {
			builder.options(options);
		}
		return new PostgresqlConnectionFactory(builder.build());
	}

}
