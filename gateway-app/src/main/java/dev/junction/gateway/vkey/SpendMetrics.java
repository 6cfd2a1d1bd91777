package dev.junction.gateway.vkey;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import dev.junction.gateway.provider.Usage;
import dev.junction.gateway.routing.Target;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.jspecify.annotations.Nullable;

/**
 * What requests cost: {@code junction.spend.cost} (US dollars) and
 * {@code junction.spend.tokens} per provider and model, and
 * {@code junction.key.spend.cost} and {@code junction.key.spend.tokens} per virtual key
 * id. Key ids beyond the configured number share the series {@code key="other"}; models
 * beyond the first {@value #MAX_MODELS} share {@code model="other"}, so clients naming
 * arbitrary models cannot grow the series without bound. The counters of a series are
 * made once and kept.
 */
public final class SpendMetrics {

	public static final String COST = "junction.spend.cost";

	public static final String TOKENS = "junction.spend.tokens";

	public static final String KEY_COST = "junction.key.spend.cost";

	public static final String KEY_TOKENS = "junction.key.spend.tokens";

	static final int MAX_MODELS = 100;

	private static final String OTHER = "other";

	private final MeterRegistry registry;

	private final int maxKeys;

	private final Set<String> keys = ConcurrentHashMap.newKeySet();

	private final Set<String> models = ConcurrentHashMap.newKeySet();

	private final ConcurrentHashMap<String, Series> byTarget = new ConcurrentHashMap<>();

	private final ConcurrentHashMap<String, Series> byKey = new ConcurrentHashMap<>();

	public SpendMetrics(MeterRegistry registry, int maxKeys) {
		this.registry = registry;
		this.maxKeys = maxKeys;
	}

	public void record(@Nullable String keyId, Target target, Usage usage, long costNanos) {
		double usd = Money.usd(costNanos);
		String model = bounded(this.models, target.model(), MAX_MODELS);
		this.byTarget
			.computeIfAbsent(target.provider() + '/' + model,
					(ignored) -> new Series(COST, TOKENS, "provider", target.provider(), "model", model))
			.add(usd, usage);
		if (keyId != null) {
			String key = bounded(this.keys, keyId, this.maxKeys);
			this.byKey.computeIfAbsent(key, (ignored) -> new Series(KEY_COST, KEY_TOKENS, "key", key)).add(usd, usage);
		}
	}

	private static String bounded(Set<String> seen, String value, int max) {
		if (seen.contains(value)) {
			return value;
		}
		if (seen.size() < max && seen.add(value)) {
			return value;
		}
		return seen.contains(value) ? value : OTHER;
	}

	/** The cost and token counters of one series. */
	private final class Series {

		private final Counter cost;

		private final Counter input;

		private final Counter output;

		Series(String costName, String tokensName, String... tags) {
			this.cost = Counter.builder(costName)
				.description("What requests cost, in US dollars, by the price table")
				.baseUnit("usd")
				.tags(tags)
				.register(SpendMetrics.this.registry);
			this.input = tokens(tokensName, "input", tags);
			this.output = tokens(tokensName, "output", tags);
		}

		private Counter tokens(String name, String type, String... tags) {
			return Counter.builder(name)
				.description("Tokens charged, by type (input, output)")
				.tags(tags)
				.tag("type", type)
				.register(SpendMetrics.this.registry);
		}

		void add(double usd, Usage usage) {
			this.cost.increment(usd);
			this.input.increment(usage.promptTokens());
			this.output.increment(usage.completionTokens());
		}

	}

}
