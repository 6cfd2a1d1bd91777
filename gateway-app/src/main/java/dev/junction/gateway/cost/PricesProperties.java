package dev.junction.gateway.cost;

import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Prices over the bundled table: {@code junction.gateway.prices.<model>.input},
 * {@code .output}, {@code .cached-input}, {@code .reasoning}, in US dollars per million
 * tokens. A model named here replaces the bundled price or adds one; name a model as its
 * provider knows it ({@code gpt-4o-mini}), or with a provider ({@code emu/gpt-4o-mini})
 * to price it there only.
 *
 * @param prices price per model
 */
@ConfigurationProperties(PricesProperties.PREFIX)
public record PricesProperties(@Nullable Map<String, Price> prices) {

	public PricesProperties {
		prices = (prices != null) ? prices : Map.of();
	}

	/** Prefix of these properties. */
	public static final String PREFIX = "junction.gateway";

}
