package dev.junction.messaging.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * The database integration tests run against, chosen by the {@code test.database} system
 * property: {@code postgresql} (a real PostgreSQL started from zonky's binaries, once per
 * JVM) or {@code h2} (in memory, PostgreSQL mode). The build runs the suite once for
 * each.
 */
public final class TestDatabase {

	/** System property choosing the database. */
	public static final String PROPERTY = "test.database";

	private static EmbeddedPostgres shared;

	private TestDatabase() {
	}

	/** Whether this run uses PostgreSQL. */
	public static boolean postgres() {
		return !"h2".equals(System.getProperty(PROPERTY, "postgresql"));
	}

	/** Points {@code spring.r2dbc.url} at this run's database. */
	public static void register(DynamicPropertyRegistry registry) {
		if (postgres()) {
			registry.add("spring.r2dbc.url", () -> url(sharedPostgres()));
		}
		else {
			registry.add("spring.r2dbc.url", () -> "r2dbc:h2:mem:///messaging-tests?options=DB_CLOSE_DELAY=-1");
		}
	}

	/** The PostgreSQL server shared by every test in this JVM. */
	public static synchronized EmbeddedPostgres sharedPostgres() {
		if (shared == null) {
			shared = startPostgres();
			EmbeddedPostgres server = shared;
			Runtime.getRuntime().addShutdownHook(new Thread(() -> close(server)));
		}
		return shared;
	}

	/** A new PostgreSQL server, for tests that stop it. */
	public static EmbeddedPostgres startPostgres() {
		try {
			return EmbeddedPostgres.builder().start();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/** R2DBC URL of {@code server}'s {@code postgres} database. */
	public static String url(EmbeddedPostgres server) {
		return url(server, "postgres");
	}

	/** R2DBC URL of {@code server}'s database {@code database}. */
	public static String url(EmbeddedPostgres server, String database) {
		return "r2dbc:postgresql://postgres@localhost:" + server.getPort() + "/" + database;
	}

	/**
	 * A new, empty database on the shared PostgreSQL server, for instances whose work
	 * (webhook deliveries, notifications) no instance of another test may take part in;
	 * the service creates its tables there at its first start.
	 */
	public static String createPostgresDatabase() {
		String name = "instances_" + UUID.randomUUID().toString().replace("-", "");
		try (Connection connection = sharedPostgres().getPostgresDatabase().getConnection();
				Statement statement = connection.createStatement()) {
			statement.execute("CREATE DATABASE " + name);
			return name;
		}
		catch (SQLException ex) {
			throw new IllegalStateException("database " + name + " not created", ex);
		}
	}

	public static void close(EmbeddedPostgres server) {
		try {
			server.close();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
