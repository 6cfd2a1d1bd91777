package dev.junction.gateway.vkey;

import java.time.Duration;

import dev.junction.database.DatabaseUrl;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.StringUtils;

/**
 * Virtual keys: on when an admin key is configured
 * ({@code junction.gateway.auth.admin-keys}) or a database is.
 *
 * @param db where keys, budgets and spend are kept
 * @param defaultMaxTokens output tokens a budget reserves for a request without
 * {@code max_tokens}
 * @param metricsMaxKeys key ids that get their own series in the cost and token metrics;
 * keys beyond these are counted under {@code key="other"}
 * @param cacheMaxKeys keys each instance keeps in memory (and ids it remembers as
 * unknown)
 * @param lease the blocks of budget each instance takes from the database
 * @param flushInterval how often spend and spent budget are written to the database
 */
@ConfigurationProperties(VirtualKeysProperties.PREFIX)
public record VirtualKeysProperties(@DefaultValue Db db, @DefaultValue("4096") long defaultMaxTokens,
		@DefaultValue("1000") int metricsMaxKeys, @DefaultValue("10000") long cacheMaxKeys, @DefaultValue Lease lease,
		@DefaultValue("1s") Duration flushInterval) {

	public VirtualKeysProperties {
		if (flushInterval.isNegative() || flushInterval.isZero()) {
			throw new IllegalStateException(PREFIX + ".flush-interval must be positive, not " + flushInterval);
		}
	}

	/** Prefix of these properties. */
	public static final String PREFIX = "junction.gateway.virtual-keys";

	/**
	 * Blocks of a key's budget an instance takes from the database and serves
	 * reservations from.
	 *
	 * @param fraction a block's share of the budget
	 * @param minUsd the smallest block, in US dollars
	 * @param maxUsd the largest block, in US dollars
	 * @param idleTimeout how long a block goes unused before what is left of it is given
	 * back
	 */
	public record Lease(@DefaultValue("0.05") double fraction, @DefaultValue("0.0001") double minUsd,
			@DefaultValue("1") double maxUsd, @DefaultValue("2s") Duration idleTimeout) {

		public Lease {
			if (!(fraction > 0 && fraction <= 1)) {
				throw new IllegalStateException(
						PREFIX + ".lease.fraction must be above 0 and at most 1, not " + fraction);
			}
			if (minUsd < 0 || maxUsd < minUsd) {
				throw new IllegalStateException(PREFIX + ".lease.min-usd (" + minUsd
						+ ") must be at least 0 and at most " + PREFIX + ".lease.max-usd (" + maxUsd + ")");
			}
		}

	}

	/**
	 * The database.
	 *
	 * @param url PostgreSQL ({@code postgresql://user:pass@host:5432/db}) for keys and
	 * budgets shared by several instances, or H2 ({@code jdbc:h2:...}); unset means an
	 * embedded H2 file at {@link #h2Path}
	 * @param username user name, when the URL carries none
	 * @param password password, when the URL carries none
	 * @param h2Path file (without extension) of the embedded H2 database
	 * @param poolMaxSize largest number of open connections
	 * @param connectTimeout longest wait for a new connection
	 */
	public record Db(@Nullable String url, @Nullable String username, @Nullable String password,
			@DefaultValue("./data/gateway") String h2Path, @DefaultValue("10") int poolMaxSize,
			@DefaultValue("5s") Duration connectTimeout) {

		/**
		 * The database these settings point at: {@link #url}, or else the H2 file at
		 * {@link #h2Path}.
		 */
		public DatabaseUrl location() {
			return StringUtils.hasText(this.url)
					? DatabaseUrl.parse(PREFIX + ".db.url", this.url, this.username, this.password)
					: DatabaseUrl.h2File(this.h2Path, this.username, this.password);
		}

		@Override
		public String toString() {
			return "Db[url=" + (StringUtils.hasText(this.url) ? location().describe() : null) + ", h2Path="
					+ this.h2Path + "]";
		}

	}

}
