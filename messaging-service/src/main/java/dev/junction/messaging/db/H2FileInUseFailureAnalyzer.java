package dev.junction.messaging.db;

import java.sql.SQLException;

import dev.junction.database.DatabaseUrl;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Explains a start-up stopped by an H2 file that another process holds open. */
class H2FileInUseFailureAnalyzer extends AbstractFailureAnalyzer<SQLException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, SQLException cause) {
		if (!DatabaseUrl.h2FileInUse(cause)) {
			return null;
		}
		return new FailureAnalysis(
				"The H2 database file is in use by another process: only one instance runs on an H2 file.",
				"Run several instances on PostgreSQL (spring.r2dbc.url=r2dbc:postgresql://host:5432/db), or give this one "
						+ "its own H2 file (spring.r2dbc.url=r2dbc:h2:file:///./path).",
				cause);
	}

}
