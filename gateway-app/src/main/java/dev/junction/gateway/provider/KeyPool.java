package dev.junction.gateway.provider;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

import dev.junction.gateway.config.GatewayProperties;
import dev.junction.gateway.error.DeniedException;
import dev.junction.gateway.error.UpstreamException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A provider's upstream keys, chosen per request by weight among those allowed for the
 * model and currently usable. A key the upstream refuses (401, 403) leaves the rotation; one
 * that gets 429 rests for the upstream's Retry-After (or the configured rest) while the
 * others serve.
 */
public final class KeyPool {

	private static final Logger logger = LoggerFactory.getLogger(KeyPool.class);

	private final String provider;

	private final List<PooledKey> keys;

	private final Duration defaultRest;

	public KeyPool(String provider, List<GatewayProperties.Key> keys, Duration defaultRest) {
		this.provider = provider;
		this.defaultRest = defaultRest;
		for (GatewayProperties.Key key : keys) {
			if (key.value() == null || key.value().isBlank()) {
				throw new IllegalStateException(
						GatewayProperties.PREFIX + ".providers." + provider + ".keys: a key has no value");
			}
			if (key.weight() < 1) {
				throw new IllegalStateException(
						GatewayProperties.PREFIX + ".providers." + provider + ".keys: a key's weight must be at least 1");
			}
		}
		this.keys = keys.stream().map((key) -> new PooledKey(key, keys.indexOf(key))).toList();
	}

	public boolean isEmpty() {
		return this.keys.isEmpty();
	}

	/**
	 * A key for the model, with probability proportional to its weight among usable keys.
	 * @return the key, or null when the provider uses no keys
	 * @throws DeniedException when every key that may serve the model is resting or refused
	 */
	public @Nullable PooledKey pick(String model) {
		if (this.keys.isEmpty()) {
			return null;
		}
		long now = System.nanoTime();
		int total = 0;
		for (PooledKey key : this.keys) {
			if (key.usable(model, now)) {
				total += key.config.weight();
			}
		}
		if (total == 0) {
			throw exhausted(model, now);
		}
		int point = ThreadLocalRandom.current().nextInt(total);
		for (PooledKey key : this.keys) {
			if (key.usable(model, now)) {
				point -= key.config.weight();
				if (point < 0) {
					return key;
				}
			}
		}
		throw exhausted(model, now);
	}

	/** Tells the pool how a call with a key failed. */
	public void report(PooledKey key, Throwable error) {
		if (!(error instanceof UpstreamException upstream) || upstream.kind() != UpstreamException.Kind.STATUS) {
			return;
		}
		int status = upstream.upstreamStatus();
		if (status == 401 || status == 403) {
			if (!key.disabled) {
				key.disabled = true;
				logger.warn("Provider '{}' refused key #{} ({}): taken out of rotation", this.provider, key.index, status);
			}
		}
		else if (status == 429) {
			Duration rest = (upstream.retryAfter() != null) ? upstream.retryAfter() : this.defaultRest;
			key.restUntil = System.nanoTime() + rest.toNanos();
		}
	}

	private DeniedException exhausted(String model, long now) {
		long soonest = Long.MAX_VALUE;
		for (PooledKey key : this.keys) {
			if (!key.disabled && key.serves(model) && key.restUntil > now) {
				soonest = Math.min(soonest, key.restUntil - now);
			}
		}
		if (soonest == Long.MAX_VALUE) {
			return DeniedException.unavailable("provider_keys",
					"Provider '" + this.provider + "' has no usable key for model '" + model + "'.", null);
		}
		return DeniedException.rateLimited("provider_keys",
				"Every key of provider '" + this.provider + "' is resting after rate limiting.",
				Duration.ofNanos(soonest));
	}

	/** One key and its health. */
	public static final class PooledKey {

		private final GatewayProperties.Key config;

		private final int index;

		private volatile boolean disabled;

		private volatile long restUntil;

		PooledKey(GatewayProperties.Key config, int index) {
			this.config = config;
			this.index = index;
		}

		public String value() {
			return this.config.value();
		}

		/** A name for the key that holds no secret: its position in the configuration. */
		public String id() {
			return "key" + this.index;
		}

		boolean serves(String model) {
			return this.config.models() == null || this.config.models().isEmpty()
					|| this.config.models().contains(model);
		}

		boolean usable(String model, long now) {
			return !this.disabled && this.restUntil - now <= 0 && serves(model);
		}

		@Override
		public String toString() {
			return id();
		}

	}

}
