package dev.junction.gateway.cost;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * Prices per model: the bundled table ({@code default-prices.json}, current OpenAI and
 * Anthropic models) with the operator's {@code junction.gateway.prices} over it. A model
 * is looked up by its upstream name, so {@code emu/gpt-4o-mini} on any OpenAI-compatible
 * provider is priced as {@code gpt-4o-mini}; a dated or suffixed name
 * ({@code gpt-4o-mini-2024-07-18}, {@code claude-sonnet-4-20250514}) takes the price of
 * the longest listed name it begins with.
 */
public final class PriceTable {

	private static final String BUNDLED = "default-prices.json";

	private static final int MAX_REMEMBERED = 10_000;

	private final Map<String, Price> prices;

	/** Models already looked up, with their price or {@link Price#FREE}. */
	private final Map<String, Price> found = new ConcurrentHashMap<>();

	public PriceTable(Map<String, Price> prices) {
		Map<String, Price> lower = new HashMap<>();
		prices.forEach((model, price) -> lower.put(model.toLowerCase(Locale.ROOT), price));
		this.prices = Map.copyOf(lower);
	}

	/** The bundled table with {@code overrides} replacing or adding models. */
	public static PriceTable bundledWith(Map<String, Price> overrides, ObjectMapper mapper) {
		Map<String, Price> prices = new HashMap<>(bundled(mapper));
		prices.putAll(overrides);
		return new PriceTable(prices);
	}

	static Map<String, Price> bundled(ObjectMapper mapper) {
		try (InputStream in = PriceTable.class.getResourceAsStream(BUNDLED)) {
			if (in == null) {
				throw new IllegalStateException("the bundled price table " + BUNDLED + " is missing");
			}
			Map<String, Price> prices = new HashMap<>();
			JsonNode models = mapper.readTree(in).path("models");
			for (Map.Entry<String, JsonNode> entry : models.properties()) {
				JsonNode price = entry.getValue();
				prices.put(entry.getKey(),
						new Price(price.path("input").asDouble(), price.path("output").asDouble(),
								price.hasNonNull("cached_input") ? price.get("cached_input").asDouble() : null,
								price.hasNonNull("reasoning") ? price.get("reasoning").asDouble() : null));
			}
			return prices;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/** The price of an upstream model, or null when the table has none. */
	public @Nullable Price find(String model) {
		String name = model.toLowerCase(Locale.ROOT);
		int slash = name.lastIndexOf('/');
		Price exact = this.prices.get(name);
		if (exact != null) {
			return exact;
		}
		if (slash >= 0) {
			name = name.substring(slash + 1);
			exact = this.prices.get(name);
			if (exact != null) {
				return exact;
			}
		}
		String best = null;
		for (String listed : this.prices.keySet()) {
			if (name.startsWith(listed) && name.length() > listed.length() && isSeparator(name.charAt(listed.length()))
					&& (best == null || listed.length() > best.length())) {
				best = listed;
			}
		}
		return (best != null) ? this.prices.get(best) : null;
	}

	/** The price of an upstream model; a model without one costs nothing. */
	public Price priceOf(String model) {
		Price known = this.found.get(model);
		if (known != null) {
			return known;
		}
		Price price = find(model);
		price = (price != null) ? price : Price.FREE;
		if (this.found.size() < MAX_REMEMBERED) {
			this.found.put(model, price);
		}
		return price;
	}

	private static boolean isSeparator(char c) {
		return c == '-' || c == '@' || c == ':' || c == '.';
	}

}
