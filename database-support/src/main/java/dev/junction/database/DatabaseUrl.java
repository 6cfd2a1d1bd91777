package dev.junction.database;

import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

import io.r2dbc.h2.H2ConnectionFactoryProvider;
import io.r2dbc.postgresql.PostgresqlConnectionFactory;
import io.r2dbc.postgresql.PostgresqlConnectionFactoryProvider;
import io.r2dbc.postgresql.client.SSLMode;
import io.r2dbc.spi.ConnectionFactories;
import io.r2dbc.spi.ConnectionFactory;
import io.r2dbc.spi.ConnectionFactoryOptions;
import org.jspecify.annotations.Nullable;

/**
 * One database location, PostgreSQL or H2, read from any of the URL forms people write
 * ({@code postgresql://user:pass@host/db}, {@code jdbc:postgresql://...},
 * {@code r2dbc:postgresql://...}, {@code jdbc:h2:...}, {@code r2dbc:h2:file:///path}),
 * and given in the forms the services need: a JDBC URL for Flyway, R2DBC options and
 * connections.
 *
 * @param postgres whether it is PostgreSQL (H2 otherwise)
 * @param host PostgreSQL host (null for H2)
 * @param port PostgreSQL port (0 for H2)
 * @param database PostgreSQL database name, or the H2 URL after {@code jdbc:h2:}
 * @param username user name, may be null on PostgreSQL
 * @param password password, may be null on PostgreSQL
 * @param options PostgreSQL connection options from the URL's query
 */
public record DatabaseUrl(boolean postgres, @Nullable String host, int port, String database, @Nullable String username,
		@Nullable String password, Map<String, String> options) {

	/** H2 settings under which it accepts the PostgreSQL dialect the services write. */
	public static final String H2_MODE = ";MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DEFAULT_NULL_ORDERING=HIGH";

	/** H2's error code for a database file locked by another process. */
	private static final int H2_DATABASE_ALREADY_OPEN = 90020;

	/**
	 * The database at {@code url}, with {@code username} and {@code password} where the
	 * URL carries none.
	 * @param property the setting {@code url} comes from, named when it is not a URL of
	 * ours
	 * @throws IllegalArgumentException naming {@code property} if {@code url} is neither
	 * PostgreSQL nor H2
	 */
	public static DatabaseUrl parse(String property, String url, @Nullable String username, @Nullable String password) {
		String value = url.trim();
		if (value.startsWith("jdbc:h2:")) {
			return h2(value.substring("jdbc:h2:".length()), username, password);
		}
		if (value.startsWith("r2dbc:h2:")) {
			return h2(fromR2dbcH2(value), username, password);
		}
		for (String prefix : new String[] { "jdbc:", "r2dbc:", "pool:" }) {
			if (value.startsWith(prefix)) {
				value = value.substring(prefix.length());
			}
		}
		if (!value.startsWith("postgresql://") && !value.startsWith("postgres://")) {
			int scheme = url.indexOf("//");
			throw new IllegalArgumentException(property
					+ " must be a PostgreSQL URL (r2dbc:postgresql://host:5432/db) or an H2 URL (r2dbc:h2:file:///./path), not a '"
					+ ((scheme > 0) ? url.substring(0, scheme) : "?") + "' URL");
		}
		return postgres(URI.create(value), username, password);
	}

	/**
	 * An H2 file at {@code path} (without extension). A relative path is resolved against
	 * the working directory (H2 refuses one that is implicitly relative); {@code ~/...}
	 * is kept.
	 */
	public static DatabaseUrl h2File(String path, @Nullable String username, @Nullable String password) {
		return h2("file:" + path + ";DB_CLOSE_ON_EXIT=FALSE", username, password);
	}

	private static DatabaseUrl h2(String rest, @Nullable String username, @Nullable String password) {
		String database = rest.contains("MODE=") ? rest : rest + H2_MODE;
		if (database.startsWith("file:")) {
			int end = database.indexOf(';');
			String path = database.substring("file:".length(), end);
			if (!path.startsWith("~")) {
				database = "file:" + Path.of(path).toAbsolutePath().normalize() + database.substring(end);
			}
		}
		return new DatabaseUrl(false, null, 0, database, (username != null && !username.isBlank()) ? username : "sa",
				(password != null) ? password : "", Map.of());
	}

	/**
	 * {@code r2dbc:h2:file:///path?options=A;B} as H2's own {@code file:path;A;B} (read
	 * by hand: the path of a file may hold characters a URI may not, such as spaces).
	 */
	private static String fromR2dbcH2(String url) {
		String rest = url.substring("r2dbc:h2:".length());
		int colon = rest.indexOf("://");
		if (colon < 0) {
			return rest;
		}
		String protocol = rest.substring(0, colon);
		String location = rest.substring(colon + 3);
		String query = "";
		int question = location.indexOf('?');
		if (question >= 0) {
			query = location.substring(question + 1);
			location = location.substring(0, question);
		}
		int slash = location.indexOf('/');
		String path = (slash >= 0) ? location.substring(slash + 1) : "";
		StringBuilder database = new StringBuilder(protocol).append(':').append(path);
		for (String pair : query.split("&")) {
			if (pair.startsWith("options=")) {
				database.append(';').append(pair.substring("options=".length()));
			}
		}
		return database.toString();
	}

	private static DatabaseUrl postgres(URI uri, @Nullable String username, @Nullable String password) {
		Map<String, String> query = new LinkedHashMap<>();
		if (uri.getRawQuery() != null && !uri.getRawQuery().isBlank()) {
			for (String pair : uri.getRawQuery().split("&")) {
				String[] kv = pair.split("=", 2);
				query.put(decode(kv[0]), (kv.length > 1) ? decode(kv[1]) : "");
			}
		}
		// The R2DBC driver's spellings, as libpq and JDBC spell them.
		rename(query, "sslMode", "sslmode");
		rename(query, "schema", "currentSchema");
		if (uri.getRawUserInfo() != null) {
			String[] parts = uri.getRawUserInfo().split(":", 2);
			username = decode(parts[0]);
			password = (parts.length > 1) ? decode(parts[1]) : password;
		}
		username = query.containsKey("user") ? query.remove("user") : username;
		password = query.containsKey("password") ? query.remove("password") : password;
		String path = uri.getPath();
		String database = (path == null || path.length() <= 1) ? "postgres" : path.substring(1);
		return new DatabaseUrl(true, (uri.getHost() != null) ? uri.getHost() : "localhost",
				(uri.getPort() > 0) ? uri.getPort() : 5432, database, username, password,
				Collections.unmodifiableMap(query));
	}

	private static void rename(Map<String, String> query, String from, String to) {
		String value = query.remove(from);
		if (value != null) {
			query.putIfAbsent(to, value);
		}
	}

	private static String decode(String value) {
		return URLDecoder.decode(value, StandardCharsets.UTF_8);
	}

	/** Whether {@code ex} says that another process holds the H2 file open. */
	public static boolean h2FileInUse(Throwable ex) {
		for (Throwable cause = ex; cause != null; cause = (cause.getCause() != cause) ? cause.getCause() : null) {
			if (cause instanceof SQLException sql && sql.getErrorCode() == H2_DATABASE_ALREADY_OPEN) {
				return true;
			}
		}
		return false;
	}

	/** The vendor's lower-case name: {@code postgresql} or {@code h2}. */
	public String vendor() {
		return this.postgres ? "postgresql" : "h2";
	}

	/** The JDBC URL (Flyway migrates through it). */
	public String jdbcUrl() {
		if (!this.postgres) {
			return "jdbc:h2:" + this.database;
		}
		StringBuilder url = new StringBuilder("jdbc:postgresql://").append(this.host)
			.append(':')
			.append(this.port)
			.append('/')
			.append(this.database);
		char separator = '?';
		for (Map.Entry<String, String> option : this.options.entrySet()) {
			url.append(separator).append(option.getKey()).append('=').append(option.getValue());
			separator = '&';
		}
		return url.toString();
	}

	/**
	 * R2DBC options for this database. On PostgreSQL the connections are named
	 * {@code applicationName} in {@code pg_stat_activity}, keep TCP alive and give up
	 * connecting after {@code connectTimeout}; {@code sslmode} and {@code currentSchema}
	 * from the URL apply, other query parameters are server settings.
	 */
	public ConnectionFactoryOptions r2dbcOptions(String applicationName, Duration connectTimeout) {
		ConnectionFactoryOptions.Builder builder = ConnectionFactoryOptions.builder();
		if (this.username != null) {
			builder.option(ConnectionFactoryOptions.USER, this.username);
		}
		if (this.password != null) {
			builder.option(ConnectionFactoryOptions.PASSWORD, this.password);
		}
		if (!this.postgres) {
			return builder.option(ConnectionFactoryOptions.DRIVER, H2ConnectionFactoryProvider.H2_DRIVER)
				.option(H2ConnectionFactoryProvider.URL, this.database)
				.build();
		}
		Map<String, String> settings = new LinkedHashMap<>(this.options);
		String sslMode = settings.remove("sslmode");
		if (sslMode != null) {
			builder.option(PostgresqlConnectionFactoryProvider.SSL_MODE, SSLMode.fromValue(sslMode));
		}
		String schema = settings.remove("currentSchema");
		if (schema != null) {
			builder.option(PostgresqlConnectionFactoryProvider.SCHEMA, schema);
		}
		settings.remove("ApplicationName");
		if (!settings.isEmpty()) {
			builder.option(PostgresqlConnectionFactoryProvider.OPTIONS, Map.copyOf(settings));
		}
		return builder.option(ConnectionFactoryOptions.DRIVER, PostgresqlConnectionFactoryProvider.POSTGRESQL_DRIVER)
			.option(ConnectionFactoryOptions.HOST, this.host)
			.option(ConnectionFactoryOptions.PORT, this.port)
			.option(ConnectionFactoryOptions.DATABASE, this.database)
			.option(ConnectionFactoryOptions.CONNECT_TIMEOUT, connectTimeout)
			.option(PostgresqlConnectionFactoryProvider.APPLICATION_NAME, applicationName)
			.option(PostgresqlConnectionFactoryProvider.TCP_KEEPALIVE, true)
			.build();
	}

	/** Connections to this database, not pooled (see {@link #r2dbcOptions}). */
	public ConnectionFactory connectionFactory(String applicationName, Duration connectTimeout) {
		return ConnectionFactories.get(r2dbcOptions(applicationName, connectTimeout));
	}

	/**
	 * Connections to this PostgreSQL database, not pooled, for {@link Notifications}.
	 * @throws IllegalStateException on H2
	 */
	public PostgresqlConnectionFactory postgresConnections(String applicationName, Duration connectTimeout) {
		if (!this.postgres) {
			throw new IllegalStateException("Not a PostgreSQL database: " + describe());
		}
		return new PostgresqlConnectionFactoryProvider().create(r2dbcOptions(applicationName, connectTimeout));
	}

	/** A description without the password, for logs. */
	public String describe() {
		return this.postgres ? "PostgreSQL " + this.host + ":" + this.port + "/" + this.database
				: "H2 " + this.database.split(";")[0];
	}

	@Override
	public String toString() {
		return describe();
	}

}
