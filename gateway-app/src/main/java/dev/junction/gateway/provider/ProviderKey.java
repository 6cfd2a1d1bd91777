package dev.junction.gateway.provider;

import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * One upstream API key of a provider.
 *
 * @param value the key itself
 * @param weight its share of requests
 * @param models the models it may serve; null or empty for all
 */
public record ProviderKey(String value, int weight, @Nullable List<String> models) {

	@Override
	public String toString() {
		return "ProviderKey[weight=" + this.weight + ", models=" + this.models + "]";
	}

}
