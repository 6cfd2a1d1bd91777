package dev.junction.messaging.db;

import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.util.StringUtils;

/**
 * One database location in the two forms the service needs: a JDBC URL for Flyway and
 * the parts R2DBC connects with.
 *
 * @param vendor the database
 * @param host PostgreSQL host (null for H2)
 * @param port PostgreSQL port (0 for H2)
 * @param database PostgreSQL database name, or the H2 URL after {@code jdbc:h2:}
 * @param username user name, may be null
 * @param password password, may be null
 * @param options extra PostgreSQL connection options from the URL's query
 */
public record DatabaseUrl(Vendor vendor, String host, int port, String database, String username, String password,
		Map<String, String> options) {

	/** H2 settings that make it behave like PostgreSQL for our SQL. */
	static final String H2_MODE = ";MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DEFAULT_NULL_ORDERING=HIGH";

	/** The location described by {@code properties}. */
	public static DatabaseUrl of(DatabaseProperties properties) {
		String url = properties.url();
		if (!StringUtils.hasText(url)) {
			return h2("file:" + h2File(properties.h2Path()) + H2_MODE + ";DB_CLOSE_ON_EXIT=FALSE", properties);
		}
		url = url.trim();
		if (url.startsWith("jdbc:h2:") || url.startsWith("r2dbc:h2:")) {
			String rest = url.substring(url.indexOf("h2:") + 3);
			return h2(rest.contains("MODE=") ? rest : rest + H2_MODE, properties);
		}
		for (String prefix : new String[] { "jdbc:", "r2dbc:" }) {
			if (url.startsWith(prefix)) {
				url = url.substring(prefix.length());
			}
		}
		if (!url.startsWith("postgresql://") && !url.startsWith("postgres://")) {
			throw new IllegalArgumentException(DatabaseProperties.PREFIX
					+ ".url must be a PostgreSQL URL (postgresql://host:port/db) or an H2 URL (jdbc:h2:...), got '"
					+ properties.url() + "'");
		}
		return postgres(URI.create(url), properties);
	}

	/**
	 * The H2 file as an absolute path: H2 refuses a path implicitly relative to the working
	 * directory ({@code data/messaging}), so such a path is resolved against it here.
	 * {@code ~/...} (H2's home directory) is kept as it is.
	 */
	private static String h2File(String path) {
		return path.startsWith("~") ? path : Path.of(path).toAbsolutePath().normalize().toString();
	}

	private static DatabaseUrl h2(String database, DatabaseProperties properties) {
		String username = StringUtils.hasText(properties.username()) ? properties.username() : "sa";
		String password = (properties.password() != null) ? properties.password() : "";
		return new DatabaseUrl(Vendor.H2, null, 0, database, username, password, Map.of());
	}

	private static DatabaseUrl postgres(URI uri, DatabaseProperties properties) {
		Map<String, String> query = parseQuery(uri.getRawQuery());
		String username = properties.username();
		String password = properties.password();
		if (uri.getRawUserInfo() != null) {
			String[] parts = uri.getRawUserInfo().split(":", 2);
			username = decode(parts[0]);
			password = (parts.length > 1) ? decode(parts[1]) : password;
		}
		username = (query.containsKey("user")) ? query.remove("user") : username;
		password = (query.containsKey("password")) ? query.remove("password") : password;
		String path = uri.getPath();
		String database = (path == null || path.length() <= 1) ? "postgres" : path.substring(1);
		String host = (uri.getHost() != null) ? uri.getHost() : "localhost";
		int port = (uri.getPort() > 0) ? uri.getPort() : 5432;
		return new DatabaseUrl(Vendor.POSTGRESQL, host, port, database, username, password, Map.copyOf(query));
	}

	private static Map<String, String> parseQuery(String query) {
		Map<String, String> result = new LinkedHashMap<>();
		if (!StringUtils.hasText(query)) {
			return result;
		}
		for (String pair : query.split("&")) {
			String[] kv = pair.split("=", 2);
			result.put(decode(kv[0]), (kv.length > 1) ? decode(kv[1]) : "");
		}
		return result;
	}

	private static String decode(String value) {
		return URLDecoder.decode(value, StandardCharsets.UTF_8);
	}

	/** The JDBC URL Flyway migrates through. */
	public String jdbcUrl() {
		if (this.vendor == Vendor.H2) {
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
	public String describe() {
		return (this.vendor == Vendor.H2) ? "H2 " + this.database
				: "PostgreSQL " + this.host + ":" + this.port + "/" + this.database;
	}

	@Override
	public String toString() {
		return describe();
	}

}
