package dev.junction.messaging.db;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.HashSet;
import java.util.Set;
import java.util.UUID;

import dev.junction.database.DatabaseUrl;
import dev.junction.messaging.support.TestDatabase;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.configuration.FluentConfiguration;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Upgrades of a database that already holds data, on this run's database (PostgreSQL or
 * H2).
 */
class MigrationsIntegrationTests {

	@Test
	void keysLimitedToInstancesBeforeTheUpgradeStayLimitedToThem() throws SQLException {
		DatabaseUrl url = freshDatabase();
		flyway(url).target("2").load().migrate();
		UUID a = UUID.randomUUID();
		UUID b = UUID.randomUUID();
		UUID limited = UUID.randomUUID();
		UUID unlimited = UUID.randomUUID();
		try (Connection connection = connect(url)) {
			insertKey(connection, limited, a + "," + b);
			insertKey(connection, unlimited, null);
		}
		flyway(url).load().migrate();
		Set<String> rows = new HashSet<>();
		try (Connection connection = connect(url);
				Statement statement = connection.createStatement();
				ResultSet result = statement.executeQuery("SELECT key_id, instance_id FROM api_key_instances")) {
			while (result.next()) {
				rows.add(result.getString(1) + "/" + result.getString(2));
			}
		}
		assertThat(rows).containsExactlyInAnyOrder(limited + "/" + a, limited + "/" + b);
	}

	private static FluentConfiguration flyway(DatabaseUrl url) {
		return Flyway.configure()
			.dataSource(url.jdbcUrl(), url.username(), url.password())
			.locations("classpath:db/migration/common", "classpath:db/migration/" + url.vendor());
	}

	private static void insertKey(Connection connection, UUID id, String instances) throws SQLException {
		try (PreparedStatement insert = connection
			.prepareStatement("INSERT INTO api_keys (id, name, key_hash, key_prefix, "
					+ "scopes, instance_ids, created_at) VALUES (?, 'old', ?, 'jk_old', 'READ', ?, ?)")) {
			insert.setObject(1, id);
			insert.setString(2, id.toString().replace("-", "") + id.toString().replace("-", ""));
			insert.setString(3, instances);
			insert.setTimestamp(4, Timestamp.from(Instant.now()));
			insert.executeUpdate();
		}
	}

	private static Connection connect(DatabaseUrl url) throws SQLException {
		return DriverManager.getConnection(url.jdbcUrl(), url.username(), url.password());
	}

	/** An empty database of this run's kind. */
	private static DatabaseUrl freshDatabase() throws SQLException {
		String name = "migrations_" + UUID.randomUUID().toString().replace("-", "");
		if (!TestDatabase.postgres()) {
			return DatabaseUrl.parse("test", "jdbc:h2:mem:" + name + ";DB_CLOSE_DELAY=-1", null, null);
		}
		String server = TestDatabase.url(TestDatabase.sharedPostgres());
		DatabaseUrl admin = DatabaseUrl.parse("test", server, null, null);
		try (Connection connection = connect(admin); Statement statement = connection.createStatement()) {
			statement.execute("CREATE DATABASE " + name);
		}
		return DatabaseUrl.parse("test", server.substring(0, server.lastIndexOf('/') + 1) + name, null, null);
	}

}
