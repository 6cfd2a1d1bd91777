package dev.junction.gateway.vkey;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import dev.junction.gateway.provider.Usage;
import dev.junction.gateway.routing.Target;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.jspecify.annotations.Nullable;

/**
 * What requests cost: {@code junction.spend.cost} (US dollars) and {@code junction.spend.tokens}
 * per provider and model, and {@code junction.key.spend.cost} and {@code junction.key.spend.tokens}
 * per virtual key id. Key ids beyond the configured number share the series {@code key="other"}.
 */
public final class SpendMetrics {

	public static final String COST = "junction.spend.cost";

	public static final String TOKENS = "junction.spend.tokens";

	public static final String KEY_COST = "junction.key.spend.cost";

	public static final String KEY_TOKENS = "junction.key.spend.tokens";

	private final MeterRegistry registry;

	private final int maxKeys;

	private final Set<String> keys = ConcurrentHashMap.newKeySet();

	public SpendMetrics(MeterRegistry registry, int maxKeys) {
		this.registry = registry;
		this.maxKeys = maxKeys;
	}

	public void record(@Nullable String keyId, Target target, Usage usage, long costNanos) {
		double usd = Money.usd(costNanos);
		Counter.builder(COST)
			.description("What requests cost, in US dollars, by the price table")
			.baseUnit("usd")
			.tags("provider", target.provider(), "model", target.model())
			.register(this.registry)
			.increment(usd);
		tokens(TOKENS, usage, "provider", target.provider(), "model", target.model());
		if (keyId != null) {
			String key = keyTag(keyId);
			Counter.builder(KEY_COST)
				.description("What each virtual key's requests cost, in US dollars")
				.baseUnit("usd")
				.tag("key", key)
				.register(this.registry)
				.increment(usd);
			tokens(KEY_TOKENS, usage, "key", key);
		}
	}

	private void tokens(String name, Usage usage, String... tags) {
		Counter.builder(name)
			.description("Tokens charged, by type (input, output)")
			.tags(tags)
			.tag("type", "input")
			.register(this.registry)
			.increment(usage.promptTokens());
		Counter.builder(name)
			.description("Tokens charged, by type (input, output)")
			.tags(tags)
			.tag("type", "output")
			.register(this.registry)
			.increment(usage.completionTokens());
	}

	private String keyTag(String keyId) {
		if (this.keys.contains(keyId)) {
			return keyId;
		}
		if (this.keys.size() < this.maxKeys && this.keys.add(keyId)) {
			return keyId;
		}
		return this.keys.contains(keyId) ? keyId : "other";
	}

}
