package dev.junction.gateway.vkey;

import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.util.StringUtils;

/**
 * The key database in the two forms needed: a JDBC URL for Flyway and the parts R2DBC
 * connects with.
 *
 * @param postgres whether it is PostgreSQL (H2 otherwise)
 * @param host PostgreSQL host
 * @param port PostgreSQL port
 * @param database PostgreSQL database name, or the H2 URL after {@code jdbc:h2:}
 * @param username user name
 * @param password password
 * @param options extra PostgreSQL connection options from the URL's query
 */
record DatabaseUrl(boolean postgres, @Nullable String host, int port, String database, @Nullable String username,
		@Nullable String password, Map<String, String> options) {

	/** H2 settings that make it accept the PostgreSQL dialect of the migrations. */
	private static final String H2_MODE = ";MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DEFAULT_NULL_ORDERING=HIGH";

	static DatabaseUrl of(VirtualKeysProperties.Db db) {
		String url = db.url();
		if (!StringUtils.hasText(url)) {
			String file = db.h2Path().startsWith("~") ? db.h2Path()
					: Path.of(db.h2Path()).toAbsolutePath().normalize().toString();
			return h2("file:" + file + H2_MODE + ";DB_CLOSE_ON_EXIT=FALSE", db);
		}
		url = url.trim();
		if (url.startsWith("jdbc:h2:") || url.startsWith("r2dbc:h2:")) {
			String rest = url.substring(url.indexOf("h2:") + 3);
			return h2(rest.contains("MODE=") ? rest : rest + H2_MODE, db);
		}
		for (String prefix : new String[] { "jdbc:", "r2dbc:" }) {
			if (url.startsWith(prefix)) {
				url = url.substring(prefix.length());
			}
		}
		if (!url.startsWith("postgresql://") && !url.startsWith("postgres://")) {
			throw new IllegalArgumentException(VirtualKeysProperties.PREFIX
					+ ".db.url must be a PostgreSQL URL (postgresql://host:port/db) or an H2 URL (jdbc:h2:...)");
		}
		return postgres(URI.create(url), db);
	}

	private static DatabaseUrl h2(String database, VirtualKeysProperties.Db db) {
		String username = StringUtils.hasText(db.username()) ? db.username() : "sa";
		String password = (db.password() != null) ? db.password() : "";
		return new DatabaseUrl(false, null, 0, database, username, password, Map.of());
	}

	private static DatabaseUrl postgres(URI uri, VirtualKeysProperties.Db db) {
		Map<String, String> query = new LinkedHashMap<>();
		if (StringUtils.hasText(uri.getRawQuery())) {
			for (String pair : uri.getRawQuery().split("&")) {
				String[] kv = pair.split("=", 2);
				query.put(decode(kv[0]), (kv.length > 1) ? decode(kv[1]) : "");
			}
		}
		String username = db.username();
		String password = db.password();
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
				(uri.getPort() > 0) ? uri.getPort() : 5432, database, username, password, Map.copyOf(query));
	}

	private static String decode(String value) {
		return URLDecoder.decode(value, StandardCharsets.UTF_8);
	}

	/** The JDBC URL Flyway migrates through. */
	String jdbcUrl() {
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

	/** A description without the password, for logs. */
	String describe() {
		return this.postgres ? "PostgreSQL " + this.host + ":" + this.port + "/" + this.database
				: "H2 " + this.database.split(";")[0];
	}

	@Override
	public String toString() {
		return describe();
	}

}
