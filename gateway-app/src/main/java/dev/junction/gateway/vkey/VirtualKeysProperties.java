package dev.junction.gateway.vkey;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Virtual keys: on when an admin key is configured ({@code junction.auth.admin-keys}) or a
 * database is.
 *
 * @param db where keys, budgets and spend are kept
 * @param defaultMaxTokens output tokens a budget reserves for a request without
 * {@code max_tokens}
 * @param metricsMaxKeys key ids that get their own series in the cost and token metrics;
 * keys beyond these are counted under {@code key="other"}
 * @param cacheMaxKeys keys each instance keeps in memory (and ids it remembers as unknown)
 */
@ConfigurationProperties(VirtualKeysProperties.PREFIX)
public record VirtualKeysProperties(@DefaultValue Db db, @DefaultValue("4096") long defaultMaxTokens,
		@DefaultValue("1000") int metricsMaxKeys, @DefaultValue("10000") long cacheMaxKeys) {

	/** Prefix of these properties. */
	public static final String PREFIX = "junction.virtual-keys";

	/**
	 * The database.
	 *
	 * @param url PostgreSQL ({@code postgresql://user:pass@host:5432/db}) for keys and budgets shared
	 * by several instances, or H2 ({@code jdbc:h2:...}); unset means an embedded H2 file at {@link #h2Path}
	 * @param username user name, when the URL carries none
	 * @param password password, when the URL carries none
	 * @param h2Path file (without extension) of the embedded H2 database
	 * @param poolMaxSize largest number of open connections
	 * @param connectTimeout longest wait for a new connection
	 */
	public record Db(@Nullable String url, @Nullable String username, @Nullable String password,
			@DefaultValue("./data/gateway") String h2Path, @DefaultValue("10") int poolMaxSize,
			@DefaultValue("5s") Duration connectTimeout) {

		@Override
		public String toString() {
			return "Db[url=" + ((this.url != null) ? DatabaseUrl.of(this).describe() : null) + ", h2Path=" + this.h2Path
					+ "]";
		}

	}

}
