package dev.junction.database;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import io.r2dbc.h2.H2ConnectionFactoryProvider;
import io.r2dbc.postgresql.PostgresqlConnectionFactoryProvider;
import io.r2dbc.postgresql.client.SSLMode;
import io.r2dbc.spi.ConnectionFactoryOptions;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class DatabaseUrlTests {

	private static final String WORKING_DIRECTORY = Path.of("").toAbsolutePath().toString();

	@Test
	void anH2FileIsInPostgresModeUnderItsAbsolutePath() {
		DatabaseUrl url = DatabaseUrl.h2File("./data/messaging", null, null);
		assertThat(url.postgres()).isFalse();
		assertThat(url.vendor()).isEqualTo("h2");
		assertThat(url.jdbcUrl()).isEqualTo("jdbc:h2:file:" + WORKING_DIRECTORY
				+ "/data/messaging;DB_CLOSE_ON_EXIT=FALSE;MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DEFAULT_NULL_ORDERING=HIGH");
		assertThat(url.username()).isEqualTo("sa");
		assertThat(url.password()).isEmpty();
	}

	@Test
	void resolvesARelativeH2PathAgainstTheWorkingDirectory() {
		assertThat(DatabaseUrl.h2File("data/messaging", null, null).jdbcUrl())
			.startsWith("jdbc:h2:file:" + WORKING_DIRECTORY + "/data/messaging;");
		assertThat(DatabaseUrl.h2File("./data/../db/messaging", null, null).jdbcUrl())
			.startsWith("jdbc:h2:file:" + WORKING_DIRECTORY + "/db/messaging;");
		assertThat(DatabaseUrl.parse("p", "jdbc:h2:file:data/x", null, null).jdbcUrl())
			.startsWith("jdbc:h2:file:" + WORKING_DIRECTORY + "/data/x;MODE=PostgreSQL");
	}

	@Test
	void keepsAnAbsoluteOrHomeRelativeH2Path() {
		assertThat(DatabaseUrl.h2File("/var/lib/junction/messaging", null, null).jdbcUrl())
			.startsWith("jdbc:h2:file:/var/lib/junction/messaging;");
		assertThat(DatabaseUrl.h2File("~/junction/messaging", null, null).jdbcUrl())
			.startsWith("jdbc:h2:file:~/junction/messaging;");
	}

	@Test
	void readsR2dbcH2Urls() {
		assertThat(DatabaseUrl.parse("p", "r2dbc:h2:file:///./data/messaging", null, null).jdbcUrl())
			.startsWith("jdbc:h2:file:" + WORKING_DIRECTORY + "/data/messaging;MODE=PostgreSQL");
		assertThat(DatabaseUrl.parse("p", "r2dbc:h2:file:////var/lib/messaging", null, null).jdbcUrl())
			.startsWith("jdbc:h2:file:/var/lib/messaging;MODE=PostgreSQL");
		assertThat(DatabaseUrl.parse("p", "r2dbc:h2:file:////var/lib/with space/messaging", null, null).jdbcUrl())
			.startsWith("jdbc:h2:file:/var/lib/with space/messaging;MODE=PostgreSQL");
		assertThat(DatabaseUrl.parse("p", "r2dbc:h2:mem:///tests?options=DB_CLOSE_DELAY=-1", null, null).jdbcUrl())
			.isEqualTo("jdbc:h2:mem:tests;DB_CLOSE_DELAY=-1" + DatabaseUrl.H2_MODE);
		assertThat(DatabaseUrl.parse("p", "jdbc:h2:mem:x;DB_CLOSE_DELAY=-1;MODE=MySQL", null, null).jdbcUrl())
			.isEqualTo("jdbc:h2:mem:x;DB_CLOSE_DELAY=-1;MODE=MySQL");
	}

	@Test
	void givesH2ItsUrlAsAnR2dbcOption() {
		ConnectionFactoryOptions options = DatabaseUrl.parse("p", "jdbc:h2:mem:x", null, null)
			.r2dbcOptions("app", Duration.ofSeconds(1));
		assertThat(options.getValue(ConnectionFactoryOptions.DRIVER)).isEqualTo("h2");
		assertThat(options.getValue(H2ConnectionFactoryProvider.URL)).isEqualTo("mem:x" + DatabaseUrl.H2_MODE);
		assertThat(options.getValue(ConnectionFactoryOptions.USER)).isEqualTo("sa");
	}

	@Test
	void readsCredentialsAndSettingsFromAPostgresUrl() {
		DatabaseUrl url = DatabaseUrl.parse("p",
				"postgresql://app:s%40cret@db.local:6543/messaging?sslmode=require&currentSchema=chat&lock_timeout=5s",
				null, null);
		assertThat(url.postgres()).isTrue();
		assertThat(url.vendor()).isEqualTo("postgresql");
		assertThat(url.host()).isEqualTo("db.local");
		assertThat(url.port()).isEqualTo(6543);
		assertThat(url.database()).isEqualTo("messaging");
		assertThat(url.username()).isEqualTo("app");
		assertThat(url.password()).isEqualTo("s@cret");
		assertThat(url.jdbcUrl())
			.isEqualTo("jdbc:postgresql://db.local:6543/messaging?sslmode=require&currentSchema=chat&lock_timeout=5s");
		assertThat(url.describe()).doesNotContain("cret");
		ConnectionFactoryOptions options = url.r2dbcOptions("junction-test", Duration.ofSeconds(3));
		assertThat(options.getValue(ConnectionFactoryOptions.DRIVER)).isEqualTo("postgresql");
		assertThat(options.getValue(ConnectionFactoryOptions.HOST)).isEqualTo("db.local");
		assertThat(options.getValue(ConnectionFactoryOptions.PORT)).isEqualTo(6543);
		assertThat(options.getValue(ConnectionFactoryOptions.PASSWORD)).hasToString("s@cret");
		assertThat(options.getValue(ConnectionFactoryOptions.CONNECT_TIMEOUT)).isEqualTo(Duration.ofSeconds(3));
		assertThat(options.getValue(PostgresqlConnectionFactoryProvider.APPLICATION_NAME)).isEqualTo("junction-test");
		assertThat(options.getValue(PostgresqlConnectionFactoryProvider.SSL_MODE)).isEqualTo(SSLMode.REQUIRE);
		assertThat(options.getValue(PostgresqlConnectionFactoryProvider.SCHEMA)).isEqualTo("chat");
		assertThat(options.getValue(PostgresqlConnectionFactoryProvider.OPTIONS))
			.isEqualTo(Map.of("lock_timeout", "5s"));
	}

	@Test
	void acceptsJdbcAndR2dbcForms() {
		DatabaseUrl jdbc = DatabaseUrl.parse("p", "jdbc:postgresql://h/db?user=u&password=p", null, null);
		assertThat(jdbc.username()).isEqualTo("u");
		assertThat(jdbc.password()).isEqualTo("p");
		assertThat(jdbc.port()).isEqualTo(5432);
		assertThat(jdbc.jdbcUrl()).isEqualTo("jdbc:postgresql://h:5432/db");
		DatabaseUrl r2dbc = DatabaseUrl.parse("p", "r2dbc:postgresql://h:5433/db", "user", "pw");
		assertThat(r2dbc.username()).isEqualTo("user");
		assertThat(r2dbc.password()).isEqualTo("pw");
		assertThat(DatabaseUrl.parse("p", "r2dbc:pool:postgresql://u@h/db", null, null).jdbcUrl())
			.isEqualTo("jdbc:postgresql://h:5432/db");
		assertThat(DatabaseUrl.parse("p", "r2dbc:postgresql://h/db?sslMode=require&schema=chat", null, null).jdbcUrl())
			.isEqualTo("jdbc:postgresql://h:5432/db?sslmode=require&currentSchema=chat");
	}

	@Test
	void failsNamingThePropertyWithoutQuotingTheUrl() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> DatabaseUrl.parse("spring.r2dbc.url", "mysql://root:secret@h/db", null, null))
			.withMessageContaining("spring.r2dbc.url")
			.withMessageContaining("'mysql:'")
			.withMessageNotContaining("secret");
	}

}
