package dev.junction.messaging.db;

import java.nio.file.Path;
import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class DatabaseUrlTests {

	@Test
	void defaultsToAnH2FileInPostgresMode() {
		DatabaseUrl url = DatabaseUrl.of(properties(null, null, null));
		assertThat(url.vendor()).isEqualTo(Vendor.H2);
		assertThat(url.jdbcUrl())
			.startsWith("jdbc:h2:file:" + Path.of("data/messaging").toAbsolutePath() + ";MODE=PostgreSQL");
		assertThat(url.username()).isEqualTo("sa");
	}

	@Test
	void resolvesARelativeH2PathAgainstTheWorkingDirectory() {
		String workingDirectory = Path.of("").toAbsolutePath().toString();
		assertThat(DatabaseUrl.of(h2Path("data/messaging")).jdbcUrl())
			.startsWith("jdbc:h2:file:" + workingDirectory + "/data/messaging;");
		assertThat(DatabaseUrl.of(h2Path("./data/../db/messaging")).jdbcUrl())
			.startsWith("jdbc:h2:file:" + workingDirectory + "/db/messaging;");
	}

	@Test
	void keepsAnAbsoluteOrHomeRelativeH2Path() {
		assertThat(DatabaseUrl.of(h2Path("/var/lib/junction/messaging")).jdbcUrl())
			.startsWith("jdbc:h2:file:/var/lib/junction/messaging;");
		assertThat(DatabaseUrl.of(h2Path("~/junction/messaging")).jdbcUrl())
			.startsWith("jdbc:h2:file:~/junction/messaging;");
	}

	@Test
	void readsCredentialsFromAPostgresUrl() {
		DatabaseUrl url = DatabaseUrl.of(properties("postgresql://app:s%40cret@db.local:6543/messaging?sslmode=require", null, null));
		assertThat(url.vendor()).isEqualTo(Vendor.POSTGRESQL);
		assertThat(url.host()).isEqualTo("db.local");
		assertThat(url.port()).isEqualTo(6543);
		assertThat(url.database()).isEqualTo("messaging");
		assertThat(url.username()).isEqualTo("app");
		assertThat(url.password()).isEqualTo("s@cret");
		assertThat(url.jdbcUrl()).isEqualTo("jdbc:postgresql://db.local:6543/messaging?sslmode=require");
		assertThat(url.describe()).doesNotContain("cret");
	}

	@Test
	void acceptsJdbcAndR2dbcForms() {
		DatabaseUrl jdbc = DatabaseUrl.of(properties("jdbc:postgresql://h/db?user=u&password=p", null, null));
		assertThat(jdbc.username()).isEqualTo("u");
		assertThat(jdbc.password()).isEqualTo("p");
		assertThat(jdbc.port()).isEqualTo(5432);
		assertThat(jdbc.jdbcUrl()).isEqualTo("jdbc:postgresql://h:5432/db");
		DatabaseUrl r2dbc = DatabaseUrl.of(properties("r2dbc:postgresql://h:5433/db", "user", "pw"));
		assertThat(r2dbc.username()).isEqualTo("user");
		assertThat(r2dbc.password()).isEqualTo("pw");
		DatabaseUrl h2 = DatabaseUrl.of(properties("jdbc:h2:mem:x;DB_CLOSE_DELAY=-1", null, null));
		assertThat(h2.jdbcUrl()).startsWith("jdbc:h2:mem:x;DB_CLOSE_DELAY=-1;MODE=PostgreSQL");
	}

	@Test
	void failsNamingThePropertyForOtherDatabases() {
		assertThatIllegalArgumentException().isThrownBy(() -> DatabaseUrl.of(properties("mysql://h/db", null, null)))
			.withMessageContaining("junction.messaging.db.url");
	}

	private static DatabaseProperties properties(String url, String username, String password) {
		return new DatabaseProperties(url, username, password, "./data/messaging", 2, 20, Duration.ofSeconds(5),
				Duration.ofSeconds(5));
	}

	private static DatabaseProperties h2Path(String path) {
		return new DatabaseProperties(null, null, null, path, 2, 20, Duration.ofSeconds(5), Duration.ofSeconds(5));
	}

}
