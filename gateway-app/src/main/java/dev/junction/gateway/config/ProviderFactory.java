package dev.junction.gateway.config;

import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

import dev.junction.gateway.config.GatewayProperties.Provider;
import dev.junction.gateway.provider.ChatProvider;
import dev.junction.gateway.provider.KeyPool;
import dev.junction.gateway.provider.ProviderKey;
import dev.junction.gateway.provider.ProviderLimiter;
import dev.junction.gateway.provider.ProviderRegistry;
import dev.junction.gateway.provider.ProviderType;
import dev.junction.gateway.provider.anthropic.AnthropicProviders;
import dev.junction.gateway.provider.mock.MockChatProvider;
import dev.junction.gateway.provider.openai.OpenAiProvider;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.ObjectMapper;

import org.springframework.ai.embedding.EmbeddingModel;
import org.springframework.boot.context.properties.bind.BindResult;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;
import org.springframework.util.StringUtils;

/**
 * Builds the provider registry from configuration: the named providers, or with none
 * configured the in-process {@code mock}; {@code OPENAI_API_KEY} and
 * {@code ANTHROPIC_API_KEY} in the environment add {@code openai} and {@code anthropic}
 * unless those names are taken.
 */
public final class ProviderFactory {

	private static final Logger logger = LoggerFactory.getLogger(ProviderFactory.class);

	static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(120);

	static final String OPENAI_BASE_URL = "https://api.openai.com/v1";

	private final ObjectMapper mapper;

	private final Environment environment;

	private final Function<String, @Nullable EmbeddingModel> embeddingModels;

	public ProviderFactory(ObjectMapper mapper, Environment environment) {
		this(mapper, environment, (name) -> null);
	}

	/**
	 * @param mapper JSON
	 * @param environment for keys in the environment and deprecated settings
	 * @param embeddingModels the {@link EmbeddingModel} bean of a name, or null if there
	 * is none
	 */
	public ProviderFactory(ObjectMapper mapper, Environment environment,
			Function<String, @Nullable EmbeddingModel> embeddingModels) {
		this.mapper = mapper;
		this.environment = environment;
		this.embeddingModels = embeddingModels;
	}

	public ProviderRegistry create(GatewayProperties properties) {
		Map<String, Provider> configured = new LinkedHashMap<>(properties.providers());
		if (configured.isEmpty()) {
			configured.put("mock", Provider.ofType(ProviderType.MOCK));
		}
		addFromEnvironment(configured, "openai", "OPENAI_API_KEY", ProviderType.OPENAI);
		addFromEnvironment(configured, "anthropic", "ANTHROPIC_API_KEY", ProviderType.ANTHROPIC);
		ProviderRegistry registry = new ProviderRegistry();
		configured.forEach((name, provider) -> {
			// Every value with a default in ProviderDefaults is set from here on.
			Provider effective = provider.withDefaults(properties.providersDefaults());
			registry.register(create(name, effective),
					new KeyPool(name, keys(name, effective), effective.keyRest(), cooldown(name, effective)),
					new ProviderLimiter(name, effective.concurrency(), effective.queueSize(), effective.maxQueueWait(),
							effective.dropExcess()));
		});
		return registry;
	}

	private ChatProvider create(String name, Provider provider) {
		if (provider.type() == null) {
			throw new IllegalStateException(
					GatewayProperties.PREFIX + ".providers." + name + ".type must be set (openai, anthropic or mock)");
		}
		if (provider.type() != ProviderType.OPENAI && Boolean.TRUE.equals(provider.nativeResponses())) {
			throw new IllegalStateException(GatewayProperties.PREFIX + ".providers." + name
					+ ".native-responses applies to openai providers only");
		}
		if (provider.type() != ProviderType.ANTHROPIC && StringUtils.hasText(provider.embeddingModel())) {
			throw new IllegalStateException(GatewayProperties.PREFIX + ".providers." + name
					+ ".embedding-model applies to providers served through Spring AI (anthropic) only");
		}
		List<String> models = (provider.models() != null) ? provider.models() : List.of();
		Duration timeout = timeout(name, provider);
		return switch (provider.type()) {
			case MOCK -> new MockChatProvider(name, models, this.mapper);
			case OPENAI -> {
				String baseUrl = StringUtils.hasText(provider.baseUrl()) ? provider.baseUrl() : OPENAI_BASE_URL;
				yield new OpenAiProvider(name, baseUrl, timeout, provider.connectTimeout(), provider.maxConnections(),
						models, listingKey(provider), nativeResponses(provider, baseUrl), this.mapper);
			}
			case ANTHROPIC -> {
				if (keys(name, provider).isEmpty()) {
					throw new IllegalStateException(GatewayProperties.PREFIX + ".providers." + name
							+ ".keys must hold at least one key for an anthropic provider");
				}
				yield AnthropicProviders.create(name, provider.baseUrl(), keys(name, provider),
						provider.defaultMaxTokens(), timeout, provider.connectTimeout(), provider.maxConnections(),
						models, this.mapper, embeddingModel(name, provider));
			}
		};
	}

	/**
	 * The embedding model a provider is configured with, or null; a missing bean fails
	 * start-up.
	 */
	private @Nullable EmbeddingModel embeddingModel(String name, Provider provider) {
		if (!StringUtils.hasText(provider.embeddingModel())) {
			return null;
		}
		EmbeddingModel model = this.embeddingModels.apply(provider.embeddingModel());
		if (model == null) {
			throw new IllegalStateException(GatewayProperties.PREFIX + ".providers." + name + ".embedding-model: no "
					+ "EmbeddingModel bean is named '" + provider.embeddingModel() + "'");
		}
		return model;
	}

	/**
	 * Whether Responses requests go to the upstream unchanged: as configured, else only
	 * for OpenAI's own API (other OpenAI-compatible servers often serve chat completions
	 * alone).
	 */
	static boolean nativeResponses(Provider provider, String baseUrl) {
		if (provider.nativeResponses() != null) {
			return provider.nativeResponses();
		}
		try {
			return "api.openai.com".equalsIgnoreCase(URI.create(baseUrl.strip()).getHost());
		}
		catch (IllegalArgumentException ex) {
			return false;
		}
	}

	private static Duration cooldown(String name, Provider provider) {
		Duration cooldown = provider.keyCooldown();
		if (cooldown.isNegative() || cooldown.isZero()) {
			throw new IllegalStateException(
					GatewayProperties.PREFIX + ".providers." + name + ".key-cooldown must be positive");
		}
		return cooldown;
	}

	/** The provider's keys, each with a value and a weight of at least 1. */
	private static List<ProviderKey> keys(String name, Provider provider) {
		if (provider.keys() == null) {
			return List.of();
		}
		return provider.keys().stream().map((key) -> {
			if (key.value() == null || key.value().isBlank()) {
				throw new IllegalStateException(
						GatewayProperties.PREFIX + ".providers." + name + ".keys: a key has no value");
			}
			if (key.weight() < 1) {
				throw new IllegalStateException(
						GatewayProperties.PREFIX + ".providers." + name + ".keys: a key's weight must be at least 1");
			}
			return new ProviderKey(key.value(), key.weight(), key.models());
		}).toList();
	}

	/**
	 * A call's one timeout: the provider's own, else a deprecated time limiter's, else
	 * the default.
	 */
	Duration timeout(String name, Provider provider) {
		return (provider.timeout() != null) ? provider.timeout() : timeLimit(name).orElse(DEFAULT_TIMEOUT);
	}

	/**
	 * The timeout Resilience4j's time limiter was given for a provider, once the
	 * gateway's second timeout: {@code resilience4j.timelimiter.instances.<name>},
	 * {@code configs.<name>} or {@code configs.default}. Still honoured where the
	 * provider sets no timeout, with a deprecation warning.
	 */
	private Optional<Duration> timeLimit(String name) {
		Binder binder = Binder.get(this.environment);
		for (String key : List.of("instances." + name, "configs." + name, "configs.default")) {
			String property = "resilience4j.timelimiter." + key + ".timeout-duration";
			BindResult<Duration> timeout = binder.bind(property, Duration.class);
			if (timeout.isBound()) {
				logger.warn(
						"{} is deprecated: a call has one timeout, {}.providers.{}.timeout (or {}.providers-defaults"
								+ ".timeout); using {} for provider '{}'",
						property, GatewayProperties.PREFIX, name, GatewayProperties.PREFIX, timeout.get(), name);
				return Optional.of(timeout.get());
			}
		}
		return Optional.empty();
	}

	/**
	 * A key that may serve every model, to list the upstream's models with; null if there
	 * is none.
	 */
	private static @Nullable String listingKey(Provider provider) {
		if (provider.keys() == null) {
			return null;
		}
		return provider.keys()
			.stream()
			.filter((key) -> key.models() == null || key.models().isEmpty())
			.map(GatewayProperties.Key::value)
			.findFirst()
			.orElse(null);
	}

	private void addFromEnvironment(Map<String, Provider> configured, String name, String variable, ProviderType type) {
		String key = this.environment.getProperty(variable);
		if (StringUtils.hasText(key) && !configured.containsKey(name)) {
			configured.put(name, new Provider(type, null, List.of(new GatewayProperties.Key(key, 1, null)), null, null,
					null, null, null, null, null, null, null, null, null, null, null));
		}
	}

}
