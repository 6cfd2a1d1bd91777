package dev.junction.gateway.provider;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.junction.gateway.error.DeniedException;
import dev.junction.gateway.error.UpstreamException;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A provider's upstream keys, chosen per request by weight among those allowed for the
 * model and currently usable. A key the upstream refuses (401, 403) leaves the rotation
 * for a cool-down; then one request probes it, as a circuit breaker's half-open state
 * does: if the upstream accepts the key it is back, otherwise it stays out for another
 * cool-down. A key that gets 429 rests for the upstream's Retry-After (or the configured
 * rest) while the others serve. Keys are named by their position ({@code key0}, ...),
 * never by their value.
 */
public final class KeyPool {

	/** Gauge of a provider's keys by state (in rotation, resting, refused). */
	public static final String KEYS = "junction.provider.keys";

	/** Counter of refusals (401, 403) per provider key. */
	public static final String REFUSALS = "junction.provider.key.refusals";

	private static final Logger logger = LoggerFactory.getLogger(KeyPool.class);

	private final String provider;

	private final List<PooledKey> keys;

	private final Duration defaultRest;

	private final Duration cooldown;

	private volatile @Nullable MeterRegistry registry;

	public KeyPool(String provider, List<ProviderKey> keys, Duration defaultRest, Duration cooldown) {
		this.provider = provider;
		this.defaultRest = defaultRest;
		this.cooldown = cooldown;
		for (ProviderKey key : keys) {
			if (key.value() == null || key.value().isBlank()) {
				throw new IllegalStateException("Provider '" + provider + "': a key has no value");
			}
			if (key.weight() < 1) {
				throw new IllegalStateException("Provider '" + provider + "': a key's weight must be at least 1");
			}
		}
		if (cooldown.isNegative() || cooldown.isZero()) {
			throw new IllegalStateException("Provider '" + provider + "': the key cool-down must be positive");
		}
		this.keys = keys.stream().map((key) -> new PooledKey(key, keys.indexOf(key))).toList();
	}

	/** Registers the gauges of keys by state and the refusal counter. */
	public void bindTo(MeterRegistry registry) {
		this.registry = registry;
		if (this.keys.isEmpty()) {
			return;
		}
		for (KeyState.State state : KeyState.State.values()) {
			Gauge.builder(KEYS, this, (pool) -> pool.count(state))
				.description("Upstream keys of a provider by state")
				.baseUnit("keys")
				.tag("provider", this.provider)
				.tag("state", state.tag())
				.register(registry);
		}
	}

	public boolean isEmpty() {
		return this.keys.isEmpty();
	}

	/**
	 * A key for the model: a refused key whose cool-down is over, as this request's
	 * probe, otherwise one of the usable keys with probability proportional to its
	 * weight.
	 * @return the choice, or null when the provider uses no keys
	 * @throws DeniedException when every key that may serve the model is resting or
	 * refused
	 */
	public @Nullable Pick pick(String model) {
		if (this.keys.isEmpty()) {
			return null;
		}
		long now = System.nanoTime();
		for (PooledKey key : this.keys) {
			if (key.probeDue(model, now) && key.probing.compareAndSet(false, true)) {
				return new Pick(key, true);
			}
		}
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
					return new Pick(key, false);
				}
			}
		}
		throw exhausted(model, now);
	}

	/**
	 * Whether a key could serve the model now: one in rotation, or a refused one due for
	 * its probe.
	 */
	public boolean hasUsable(String model) {
		long now = System.nanoTime();
		return this.keys.stream().anyMatch((key) -> key.usable(model, now) || key.probeDue(model, now));
	}

	/** The upstream accepted the key of a call (a stream: its first chunk arrived). */
	public void succeeded(Pick pick) {
		PooledKey key = pick.key();
		if (pick.probe() && key.refusal != null) {
			key.refusal = null;
			logger.info("Provider '{}' accepted {} again: back in rotation", this.provider, key.id());
		}
	}

	/** A call with the key failed: a refusal takes the key out, a 429 rests it. */
	public void failed(Pick pick, Throwable error) {
		PooledKey key = pick.key();
		if (isRefusal(error)) {
			refuse(key, ((UpstreamException) error).upstreamStatus(), pick.probe());
		}
		else if (error instanceof UpstreamException upstream && upstream.kind() == UpstreamException.Kind.STATUS
				&& upstream.upstreamStatus() == 429) {
			Duration rest = (upstream.retryAfter() != null) ? upstream.retryAfter() : this.defaultRest;
			key.restUntil = System.nanoTime() + rest.toNanos();
			// Rate limited, so accepted: a probed key is back, resting.
			succeeded(pick);
		}
		else if (pick.probe()) {
			// The probe proved nothing: wait another cool-down before the next one.
			Refusal refusal = key.refusal;
			if (refusal != null) {
				key.refusal = refusal.retryAt(System.nanoTime() + this.cooldown.toNanos());
			}
		}
	}

	/**
	 * The call with the key is over, however it ended: a probe left unanswered may run
	 * again.
	 */
	public void finished(Pick pick) {
		if (pick.probe()) {
			pick.key().probing.set(false);
		}
	}

	/** Whether a failure is the upstream refusing the key itself (401, 403). */
	public static boolean isRefusal(Throwable error) {
		return error instanceof UpstreamException upstream && upstream.kind() == UpstreamException.Kind.STATUS
				&& (upstream.upstreamStatus() == 401 || upstream.upstreamStatus() == 403);
	}

	/** Every key's state, for health reports. */
	public List<KeyState> states() {
		long now = System.nanoTime();
		return this.keys.stream().map((key) -> key.state(now)).toList();
	}

	private void refuse(PooledKey key, int status, boolean probe) {
		Refusal previous = key.refusal;
		long retryAt = System.nanoTime() + this.cooldown.toNanos();
		key.refusal = new Refusal(status, (previous != null) ? previous.since() : Instant.now(), retryAt,
				Instant.now().plus(this.cooldown));
		MeterRegistry registry = this.registry;
		if (registry != null) {
			Counter.builder(REFUSALS)
				.description("Upstream refusals (401, 403) of a provider key")
				.tag("provider", this.provider)
				.tag("key", key.id())
				.tag("status", Integer.toString(status))
				.register(registry)
				.increment();
		}
		if (previous == null) {
			logger.warn("Provider '{}' refused {} ({}): out of rotation, probed again in {} ms", this.provider,
					key.id(), status, this.cooldown.toMillis());
		}
		else if (probe) {
			logger.info("Provider '{}' still refuses {} ({}): probed again in {} ms", this.provider, key.id(), status,
					this.cooldown.toMillis());
		}
	}

	private double count(KeyState.State state) {
		long now = System.nanoTime();
		return this.keys.stream().filter((key) -> key.state(now).state() == state).count();
	}

	private DeniedException exhausted(String model, long now) {
		long soonestRest = Long.MAX_VALUE;
		long soonestProbe = Long.MAX_VALUE;
		int refused = 0;
		int serving = 0;
		for (PooledKey key : this.keys) {
			if (!key.serves(model)) {
				continue;
			}
			serving++;
			Refusal refusal = key.refusal;
			if (refusal != null) {
				refused++;
				soonestProbe = Math.min(soonestProbe, Math.max(0, refusal.retryAtNanos() - now));
			}
			else if (key.restUntil - now > 0) {
				soonestRest = Math.min(soonestRest, key.restUntil - now);
			}
		}
		if (serving == 0) {
			return DeniedException
				.noUsableKey("Provider '" + this.provider + "' has no key configured for model '" + model + "'.", null);
		}
		if (soonestRest != Long.MAX_VALUE) {
			return DeniedException.rateLimited("provider_keys",
					"Every usable key of provider '" + this.provider + "' is resting after rate limiting.",
					Duration.ofNanos(Math.min(soonestRest, soonestProbe)));
		}
		return DeniedException.noUsableKey("Provider '" + this.provider + "' cannot serve '" + model
				+ "' now: it refused "
				+ ((refused == 1) ? "the gateway's own API key" : "all " + refused + " of the gateway's own API keys")
				+ " (not yours). Refused keys stay out of rotation until a probe finds the provider accepts them again.",
				Duration.ofNanos(Math.max(soonestProbe, Duration.ofSeconds(1).toNanos())));
	}

	/**
	 * A key chosen for one call.
	 *
	 * @param key the key
	 * @param probe whether the call probes a refused key whose cool-down is over
	 */
	public record Pick(PooledKey key, boolean probe) {
	}

	/**
	 * A key's state as health reports show it.
	 *
	 * @param key the key's name ({@code key0}, ...)
	 * @param state in rotation, resting or refused
	 * @param upstreamStatus the status of the refusal, if refused
	 * @param since when the key was first refused, if refused
	 * @param until when the key rests until or is probed next, if out of rotation
	 */
	public record KeyState(String key, State state, @Nullable Integer upstreamStatus, @Nullable Instant since,
			@Nullable Instant until) {

		/** Whether a key serves requests. */
		public enum State {

			IN_ROTATION, RESTING, REFUSED;

			/** The lower-case name used in metrics and health reports. */
			public String tag() {
				return name().toLowerCase(java.util.Locale.ROOT);
			}

		}

	}

	/**
	 * Why a key is out of rotation: the upstream's status, since when, and when to probe
	 * it.
	 */
	private record Refusal(int status, Instant since, long retryAtNanos, Instant retryAt) {

		Refusal retryAt(long nanos) {
			return new Refusal(this.status, this.since, nanos,
					Instant.now().plusNanos(Math.max(0, nanos - System.nanoTime())));
		}

	}

	/** One key and its health. */
	public static final class PooledKey {

		private final ProviderKey config;

		private final int index;

		private final AtomicBoolean probing = new AtomicBoolean();

		private volatile @Nullable Refusal refusal;

		private volatile long restUntil;

		PooledKey(ProviderKey config, int index) {
			this.config = config;
			this.index = index;
			this.restUntil = System.nanoTime();
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
			return this.refusal == null && this.restUntil - now <= 0 && serves(model);
		}

		boolean probeDue(String model, long now) {
			Refusal refusal = this.refusal;
			return refusal != null && refusal.retryAtNanos() - now <= 0 && !this.probing.get() && serves(model);
		}

		KeyState state(long now) {
			Refusal refusal = this.refusal;
			if (refusal != null) {
				return new KeyState(id(), KeyState.State.REFUSED, refusal.status(), refusal.since(), refusal.retryAt());
			}
			long rest = this.restUntil - now;
			if (rest > 0) {
				return new KeyState(id(), KeyState.State.RESTING, null, null, Instant.now().plusNanos(rest));
			}
			return new KeyState(id(), KeyState.State.IN_ROTATION, null, null, null);
		}

		@Override
		public String toString() {
			return id();
		}

	}

}
