package dev.junction.gateway.vkey;

import java.time.Duration;

import dev.junction.database.DatabaseUrl;
import io.r2dbc.pool.ConnectionPool;
import io.r2dbc.pool.ConnectionPoolConfiguration;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The key database: migrated by Flyway over JDBC at start-up, then used through an R2DBC
 * pool.
 */
final class KeyDatabase {

	/** The {@code application_name} of the pool's connections. */
	static final String APPLICATION_NAME = "junction-gateway";

	private static final Logger logger = LoggerFactory.getLogger(KeyDatabase.class);

	private KeyDatabase() {
	}

	static ConnectionPool open(DatabaseUrl url, VirtualKeysProperties.Db db) {
		migrate(url);
		return new ConnectionPool(
				ConnectionPoolConfiguration.builder(url.connectionFactory(APPLICATION_NAME, db.connectTimeout()))
					.name("virtual-keys")
					.initialSize(1)
					.maxSize(db.poolMaxSize())
					// An idle H2 file would close and unlock: one connection stays so no
					// second process opens it.
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
			if (!url.postgres() && DatabaseUrl.h2FileInUse(ex)) {
				throw new IllegalStateException("The H2 database " + url.describe() + " is in use by another process: "
						+ "only one gateway runs on an H2 file. Run several on PostgreSQL ("
						+ VirtualKeysProperties.PREFIX + ".db.url), or give this one its own "
						+ VirtualKeysProperties.PREFIX + ".db.h2-path.", null);
			}
			throw ex;
		}
		logger.info("Virtual keys in {}", url.describe());
	}

}
