package dev.junction.gateway.provider;

import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

import dev.junction.gateway.config.GatewayProperties;
import org.jspecify.annotations.Nullable;

/** A provider's upstream keys, chosen per request by weight among those allowed for the model. */
public final class KeyPool {

	private final List<GatewayProperties.Key> keys;

	public KeyPool(List<GatewayProperties.Key> keys) {
		for (GatewayProperties.Key key : keys) {
			if (key.value() == null || key.value().isBlank()) {
				throw new IllegalStateException("a provider key has no value");
			}
			if (key.weight() < 1) {
				throw new IllegalStateException("a provider key's weight must be at least 1");
			}
		}
		this.keys = List.copyOf(keys);
	}

	public boolean isEmpty() {
		return this.keys.isEmpty();
	}

	/** A key for the model, chosen with probability proportional to its weight; null if none may serve it. */
	public @Nullable String pick(String model) {
		if (this.keys.isEmpty()) {
			return null;
		}
		if (this.keys.size() == 1) {
			GatewayProperties.Key only = this.keys.get(0);
			return serves(only, model) ? only.value() : null;
		}
		int total = 0;
		for (GatewayProperties.Key key : this.keys) {
			if (serves(key, model)) {
				total += key.weight();
			}
		}
		if (total == 0) {
			return null;
		}
		int point = ThreadLocalRandom.current().nextInt(total);
		for (GatewayProperties.Key key : this.keys) {
			if (serves(key, model)) {
				point -= key.weight();
				if (point < 0) {
					return key.value();
				}
			}
		}
		throw new IllegalStateException("unreachable");
	}

	private static boolean serves(GatewayProperties.Key key, String model) {
		return key.models() == null || key.models().isEmpty() || key.models().contains(model);
	}

}
