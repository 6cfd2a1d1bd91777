package dev.junction.gateway.provider;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/** The configured providers by name, each with its key pool. */
public final class ProviderRegistry {

	private final Map<String, Entry> providers = new LinkedHashMap<>();

	public void register(ChatProvider provider, KeyPool keys, ProviderLimiter limiter) {
		this.providers.put(provider.name(), new Entry(provider, keys, limiter));
	}

	public Set<String> names() {
		return this.providers.keySet();
	}

	/**
	 * The provider of a name from {@link #names()}; routing turns unknown names away
	 * before this.
	 */
	public Entry get(String name) {
		Entry entry = this.providers.get(name);
		if (entry == null) {
			throw new IllegalArgumentException("No provider named '" + name + "' is configured");
		}
		return entry;
	}

	public Iterable<Entry> all() {
		return this.providers.values();
	}

	/**
	 * A provider with its keys and its concurrency limiter.
	 *
	 * @param provider the adapter
	 * @param keys its upstream keys
	 * @param limiter its permits and queue
	 */
	public record Entry(ChatProvider provider, KeyPool keys, ProviderLimiter limiter) {
	}

}
