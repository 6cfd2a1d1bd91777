package dev.junction.gateway.config;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import dev.junction.gateway.provider.ProviderType;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * Gateway configuration.
 *
 * @param providers named provider instances; each inherits unset values from
 * {@code providers-defaults}
 * @param providersDefaults values shared by every provider, with the built-in defaults
 * @param models aliases: a name clients may use as {@code model}, mapped to targets
 * @param auth gateway API keys
 * @param http limits on inbound requests
 * @param rateLimit request and token budgets per gateway key (or client address)
 * @param cache the response cache
 */
@ConfigurationProperties(GatewayProperties.PREFIX)
public record GatewayProperties(@Nullable Map<String, Provider> providers,
		@DefaultValue ProviderDefaults providersDefaults, @Nullable Map<String, ModelAlias> models,
		@DefaultValue Auth auth, @DefaultValue Http http, @DefaultValue RateLimit rateLimit,
		@DefaultValue Cache cache) {

	/** Prefix of these properties. */
	public static final String PREFIX = "junction.gateway";

	public GatewayProperties {
		providers = (providers != null) ? providers : Map.of();
		models = (models != null) ? models : Map.of();
	}

	/**
	 * One provider instance. Unset values come from
	 * {@code junction.gateway.providers-defaults}.
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
	 * @param concurrency requests in flight upstream at once; more wait in the queue
	 * @param queueSize requests that may wait for a permit
	 * @param maxQueueWait the longest a request waits for a permit
	 * @param dropExcess whether a request finding the queue full fails at once (503 with
	 * Retry-After) rather than waiting anyway
	 * @param keyRest how long a key rests after a 429 without Retry-After
	 * @param keyCooldown how long a key the upstream refused (401, 403) stays out of
	 * rotation before a request probes it
	 * @param nativeResponses whether an openai provider's upstream serves the Responses
	 * API ({@code /responses}), so that Responses requests reach it unchanged rather than
	 * translated; unset: true for OpenAI's own API, false for other OpenAI-compatible
	 * base URLs
	 * @param embeddingModel the name of the Spring AI {@code EmbeddingModel} bean that
	 * serves {@code /v1/embeddings} for a provider served through Spring AI (anthropic),
	 * which has no embedding model of its own
	 */
	public record Provider(@Nullable ProviderType type, @Nullable String baseUrl, @Nullable List<Key> keys,
			@Nullable Duration timeout, @Nullable Duration connectTimeout, @Nullable Integer maxConnections,
			@Nullable List<String> models, @Nullable Integer defaultMaxTokens, @Nullable Integer concurrency,
			@Nullable Integer queueSize, @Nullable Duration maxQueueWait, @Nullable Boolean dropExcess,
			@Nullable Duration keyRest, @Nullable Duration keyCooldown, @Nullable Boolean nativeResponses,
			@Nullable String embeddingModel) {

		/** This provider with every unset value taken from {@code defaults}. */
		public Provider withDefaults(ProviderDefaults defaults) {
			return new Provider(or(this.type, defaults.type), or(this.baseUrl, defaults.baseUrl),
					or(this.keys, defaults.keys), or(this.timeout, defaults.timeout),
					or(this.connectTimeout, defaults.connectTimeout), or(this.maxConnections, defaults.maxConnections),
					or(this.models, defaults.models), or(this.defaultMaxTokens, defaults.defaultMaxTokens),
					or(this.concurrency, defaults.concurrency), or(this.queueSize, defaults.queueSize),
					or(this.maxQueueWait, defaults.maxQueueWait), or(this.dropExcess, defaults.dropExcess),
					or(this.keyRest, defaults.keyRest), or(this.keyCooldown, defaults.keyCooldown),
					or(this.nativeResponses, defaults.nativeResponses),
					or(this.embeddingModel, defaults.embeddingModel));
		}

		/** A provider of a type with nothing else set. */
		public static Provider ofType(ProviderType type) {
			return new Provider(type, null, null, null, null, null, null, null, null, null, null, null, null, null,
					null, null);
		}

		private static <T> @Nullable T or(@Nullable T value, @Nullable T fallback) {
			return (value != null) ? value : fallback;
		}

	}

	/**
	 * What every provider inherits: the settings of {@link Provider}, with the built-in
	 * defaults.
	 *
	 * @param type the adapter: openai, anthropic or mock
	 * @param baseUrl the upstream API's base URL
	 * @param keys upstream API keys
	 * @param timeout the longest an upstream call may take, to the last byte; unset: a
	 * deprecated {@code resilience4j.timelimiter} timeout if one is set, else 120s
	 * @param connectTimeout the longest a TCP connect to the upstream may take
	 * @param maxConnections pooled connections per upstream host
	 * @param models model names listed by {@code GET /v1/models}
	 * @param defaultMaxTokens {@code max_tokens} sent when a request has none (Anthropic
	 * requires one; 1024 when unset)
	 * @param concurrency requests in flight upstream at once; more wait in the queue
	 * @param queueSize requests that may wait for a permit
	 * @param maxQueueWait the longest a request waits for a permit
	 * @param dropExcess whether a request finding the queue full fails at once (503 with
	 * Retry-After) rather than waiting anyway
	 * @param keyRest how long a key rests after a 429 without Retry-After
	 * @param keyCooldown how long a key the upstream refused (401, 403) stays out of
	 * rotation before a request probes it
	 * @param nativeResponses whether an openai provider's upstream serves the Responses
	 * API
	 * @param embeddingModel the name of the Spring AI {@code EmbeddingModel} bean that
	 * serves {@code /v1/embeddings} for an anthropic provider
	 */
	public record ProviderDefaults(@Nullable ProviderType type, @Nullable String baseUrl, @Nullable List<Key> keys,
			@Nullable Duration timeout, @DefaultValue("5s") Duration connectTimeout,
			@DefaultValue("1000") int maxConnections, @Nullable List<String> models, @Nullable Integer defaultMaxTokens,
			@DefaultValue("1000") int concurrency, @DefaultValue("1000") int queueSize,
			@DefaultValue("30s") Duration maxQueueWait, @DefaultValue("true") boolean dropExcess,
			@DefaultValue("30s") Duration keyRest, @DefaultValue("30s") Duration keyCooldown,
			@Nullable Boolean nativeResponses, @Nullable String embeddingModel) {
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
	 * @param cacheSampled whether answers to sampled requests on this alias may be cached
	 * too
	 */
	public record ModelAlias(List<String> targets, @DefaultValue("false") boolean cacheSampled) {
	}

	/**
	 * Gateway API keys.
	 *
	 * @param keys accepted {@code Authorization: Bearer} keys; empty means no key is
	 * needed
	 * @param adminKeys keys that may also call administrative methods
	 */
	public record Auth(@Nullable List<String> keys, @Nullable List<String> adminKeys) {

		public Auth {
			keys = (keys != null) ? keys : List.of();
			adminKeys = (adminKeys != null) ? adminKeys : List.of();
		}

		@Override
		public String toString() {
			return "Auth[keys=" + this.keys.size() + ", adminKeys=" + this.adminKeys.size() + "]";
		}

	}

	/**
	 * Budgets per gateway key, or per client address when keys are off. Off unless a
	 * limit is set.
	 *
	 * @param requests requests allowed per window; 0 for no request limit
	 * @param tokens tokens allowed per window, reserved from {@code max_tokens} and
	 * corrected from usage; 0 for no token limit
	 * @param window the window both budgets refill over
	 * @param defaultReservation tokens reserved for a request without {@code max_tokens}
	 * @param failOpen whether requests pass (true) or fail with 503 (false) when the
	 * shared store is unreachable
	 */
	public record RateLimit(@DefaultValue("0") long requests, @DefaultValue("0") long tokens,
			@DefaultValue("1m") Duration window, @DefaultValue("1024") long defaultReservation,
			@DefaultValue("true") boolean failOpen) {

		public boolean enabled() {
			return this.requests > 0 || this.tokens > 0;
		}

	}

	/**
	 * The exact-match cache of non-streamed completions. Off unless enabled; each entry
	 * belongs to one gateway key (and one {@code user} when the request names one).
	 *
	 * @param enabled whether answers are cached
	 * @param ttl how long an answer is served from the cache
	 * @param maxEntries how many answers the in-memory cache keeps (Redis keeps its own)
	 * @param sharedNamespace when set, one namespace shared by every gateway key and user
	 * instead of one per key
	 */
	public record Cache(@DefaultValue("false") boolean enabled, @DefaultValue("5m") Duration ttl,
			@DefaultValue("10000") long maxEntries, @Nullable String sharedNamespace) {
	}

	/**
	 * Limits on inbound HTTP requests.
	 *
	 * @param maxBodySize largest accepted request body; larger ones get 413
	 * @param readTimeout longest wait for the next part of a request body; a body that
	 * stops arriving gets 408 and the connection is closed
	 */
	public record Http(@DefaultValue("10MB") DataSize maxBodySize, @DefaultValue("30s") Duration readTimeout) {
	}

}
