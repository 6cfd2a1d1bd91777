package dev.junction.gateway.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

/** A real PostgreSQL server (zonky's binaries) on a free port, for one test class. */
public final class TestPostgres implements AutoCloseable {

	private final EmbeddedPostgres server;

	private TestPostgres(EmbeddedPostgres server) {
		this.server = server;
	}

	public static TestPostgres start() {
		try {
			return new TestPostgres(EmbeddedPostgres.builder().start());
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/** The URL of its {@code postgres} database. */
	public String url() {
		return "postgresql://postgres@localhost:" + this.server.getPort() + "/postgres";
	}

	/** The URL of the database {@code name}. */
	public String url(String name) {
		return "postgresql://postgres@localhost:" + this.server.getPort() + "/" + name;
	}

	/** Runs {@code sql} as the superuser in the database {@code name}. */
	public void execute(String name, String sql) {
		try (Connection connection = this.server.getDatabase("postgres", name).getConnection();
				Statement statement = connection.createStatement()) {
			statement.execute(sql);
		}
		catch (SQLException ex) {
			throw new IllegalStateException(ex);
		}
	}

	@Override
	public void close() {
		try {
			this.server.close();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
