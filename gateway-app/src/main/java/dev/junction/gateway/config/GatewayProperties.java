package dev.junction.gateway.config;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * Gateway configuration.
 *
 * @param providers named provider instances; each inherits unset values from
 * {@code providers-defaults}
 * @param providersDefaults values shared by every provider
 * @param models aliases: a name clients may use as {@code model}, mapped to targets
 * @param auth gateway API keys
 * @param http limits on inbound requests
 */
@ConfigurationProperties(GatewayProperties.PREFIX)
public record GatewayProperties(@Nullable Map<String, Provider> providers, @DefaultValue Provider providersDefaults,
		@Nullable Map<String, ModelAlias> models, @DefaultValue Auth auth, @DefaultValue Http http) {

	/** Prefix of these properties. */
	public static final String PREFIX = "junction";

	public GatewayProperties {
		providers = (providers != null) ? providers : Map.of();
		models = (models != null) ? models : Map.of();
	}

	/** The kinds of provider adapter. */
	public enum ProviderType {

		/** Any OpenAI-compatible HTTP API, passed through. */
		OPENAI,

		/** Anthropic's Messages API, through Spring AI. */
		ANTHROPIC,

		/** The in-process deterministic emulator. */
		MOCK

	}

	/**
	 * One provider instance. Unset values come from {@code junction.providers-defaults}.
	 *
	 * @param type the adapter: openai, anthropic or mock
	 * @param baseUrl the upstream API's base URL (for openai, including {@code /v1})
	 * @param keys upstream API keys
	 * @param timeout the longest an upstream call may take, to the last byte
	 * @param connectTimeout the longest a TCP connect to the upstream may take
	 * @param maxConnections pooled connections per upstream host
	 * @param models model names listed by {@code GET /v1/models} for this provider
	 * @param defaultMaxTokens {@code max_tokens} sent when a request has none (Anthropic
	 * requires one)
	 */
	public record Provider(@Nullable ProviderType type, @Nullable String baseUrl, @Nullable List<Key> keys,
			@Nullable Duration timeout, @Nullable Duration connectTimeout, @Nullable Integer maxConnections,
			@Nullable List<String> models, @Nullable Integer defaultMaxTokens) {

		/** This provider with every unset value taken from {@code defaults}. */
		public Provider withDefaults(Provider defaults) {
			return new Provider(or(this.type, defaults.type), or(this.baseUrl, defaults.baseUrl),
					or(this.keys, defaults.keys), or(this.timeout, defaults.timeout),
					or(this.connectTimeout, defaults.connectTimeout), or(this.maxConnections, defaults.maxConnections),
					or(this.models, defaults.models), or(this.defaultMaxTokens, defaults.defaultMaxTokens));
		}

		private static <T> @Nullable T or(@Nullable T value, @Nullable T fallback) {
			return (value != null) ? value : fallback;
		}

	}

	/**
	 * An upstream API key.
	 *
	 * @param value the secret; never logged
	 * @param weight relative share of requests this key serves
	 * @param models models this key may serve; empty for all
	 */
	public record Key(String value, @DefaultValue("1") int weight, @Nullable List<String> models) {

		@Override
		public String toString() {
			return "Key[weight=" + this.weight + ", models=" + this.models + "]";
		}

	}

	/**
	 * A model alias.
	 *
	 * @param targets {@code provider/model} entries, in order of preference
	 */
	public record ModelAlias(List<String> targets) {
	}

	/**
	 * Gateway API keys.
	 *
	 * @param keys accepted {@code Authorization: Bearer} keys; empty means no key is needed
	 * @param adminKeys keys that may also call administrative methods
	 */
	public record Auth(@Nullable List<String> keys, @Nullable List<String> adminKeys) {

		public Auth {
			keys = (keys != null) ? keys : List.of();
			adminKeys = (adminKeys != null) ? adminKeys : List.of();
		}

	}

	/**
	 * Limits on inbound HTTP requests.
	 *
	 * @param maxBodySize largest accepted request body; larger ones get 413
	 */
	public record Http(@DefaultValue("10MB") DataSize maxBodySize) {
	}

}
