package dev.junction.messaging.db;

import java.sql.SQLException;

import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;
import org.flywaydb.core.api.output.MigrateResult;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Flyway over JDBC, run once at start-up before any R2DBC connection is opened. */
final class Migrations {

	private static final Logger logger = LoggerFactory.getLogger(Migrations.class);

	/** H2's error code for a database file locked by another process. */
	private static final int H2_DATABASE_ALREADY_OPEN = 90020;

	private Migrations() {
	}

	private static boolean inUse(Throwable ex) {
		for (Throwable cause = ex; cause != null; cause = cause.getCause()) {
			if (cause instanceof SQLException sql && sql.getErrorCode() == H2_DATABASE_ALREADY_OPEN) {
				return true;
			}
		}
		return false;
	}

	/** Brings the schema at {@code url} to the latest version. */
	static void migrate(DatabaseUrl url) {
		Flyway flyway = Flyway.configure(Migrations.class.getClassLoader())
			.dataSource(url.jdbcUrl(), url.username(), url.password())
			.locations("classpath:db/migration/common", "classpath:db/migration/" + url.vendor().id())
			.load();
		MigrateResult result;
		try {
			result = flyway.migrate();
		}
		catch (FlywayException ex) {
			if (url.vendor() == Vendor.H2 && inUse(ex)) {
				throw new IllegalStateException("The H2 database " + url.database().split(";")[0]
						+ " is in use by another process: only one instance runs on an H2 file. Run several instances on "
						+ "PostgreSQL (" + DatabaseProperties.PREFIX + ".url), or give this one its own "
						+ DatabaseProperties.PREFIX + ".h2-path.", null);
			}
			throw ex;
		}
		logger.info("Database {} at schema version {} ({} migrations applied)", url.describe(),
				(result.targetSchemaVersion != null) ? result.targetSchemaVersion : result.initialSchemaVersion,
				result.migrationsExecuted);
	}

}
