package dev.junction.messaging.db;

import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.output.MigrateResult;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Flyway over JDBC, run once at start-up before any R2DBC connection is opened. */
final class Migrations {

	private static final Logger logger = LoggerFactory.getLogger(Migrations.class);

	private Migrations() {
	}

	/** Brings the schema at {@code url} to the latest version. */
	static void migrate(DatabaseUrl url) {
		Flyway flyway = Flyway.configure(Migrations.class.getClassLoader())
			.dataSource(url.jdbcUrl(), url.username(), url.password())
			.locations("classpath:db/migration/common", "classpath:db/migration/" + url.vendor().id())
			.load();
		MigrateResult result = flyway.migrate();
		logger.info("Database {} at schema version {} ({} migrations applied)", url.describe(),
				(result.targetSchemaVersion != null) ? result.targetSchemaVersion : result.initialSchemaVersion,
				result.migrationsExecuted);
	}

}
