package dev.junction.gateway.config;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.junction.gateway.auth.GatewayKeyFilter;
import dev.junction.gateway.auth.GatewayKeys;
import dev.junction.gateway.cache.CachePolicy;
import dev.junction.gateway.cache.LocalResponseStore;
import dev.junction.gateway.cache.RedisResponseStore;
import dev.junction.gateway.cache.ResponseCacheStage;
import dev.junction.gateway.cache.ResponseStore;
import dev.junction.gateway.chat.ChatCompletionsHandler;
import dev.junction.gateway.chat.EntryPoints;
import dev.junction.gateway.chat.ModelsHandler;
import dev.junction.gateway.chat.RequestBodies;
import dev.junction.gateway.cost.PriceTable;
import dev.junction.gateway.cost.PricesProperties;
import dev.junction.gateway.embeddings.EmbeddingsHandler;
import dev.junction.gateway.error.AnthropicErrors;
import dev.junction.gateway.error.ErrorBodies;
import dev.junction.gateway.error.InvalidRequestException;
import dev.junction.gateway.error.OpenAiErrorWebExceptionHandler;
import dev.junction.gateway.error.OpenAiErrors;
import dev.junction.gateway.messages.MessagesHandler;
import dev.junction.gateway.messages.MessagesProperties;
import dev.junction.gateway.metrics.GatewayMetrics;
import dev.junction.gateway.metrics.GatewayTimingFilter;
import dev.junction.gateway.metrics.MetricsStage;
import dev.junction.gateway.metrics.ServerTiming;
import dev.junction.gateway.pipeline.ChatPipeline;
import dev.junction.gateway.pipeline.ChatStage;
import dev.junction.gateway.pipeline.PoolStage;
import dev.junction.gateway.pipeline.ProviderStage;
import dev.junction.gateway.pipeline.RoutingStage;
import dev.junction.gateway.provider.ProviderRegistry;
import dev.junction.gateway.provider.ProvidersHealthIndicator;
import dev.junction.gateway.ratelimit.BucketStore;
import dev.junction.gateway.ratelimit.LocalBucketStore;
import dev.junction.gateway.ratelimit.RateLimitStage;
import dev.junction.gateway.ratelimit.RateLimits;
import dev.junction.gateway.ratelimit.RedisBucketStore;
import dev.junction.gateway.requestid.RequestId;
import dev.junction.gateway.requestid.RequestIdHandler;
import dev.junction.gateway.resilience.CircuitBreakerStage;
import dev.junction.gateway.resilience.FallbackStage;
import dev.junction.gateway.resilience.GatewayRulesRegistrar;
import dev.junction.gateway.resilience.RetryStage;
import dev.junction.gateway.responses.ResponsesHandler;
import dev.junction.gateway.routing.ModelRouter;
import dev.junction.gateway.tracing.RequestTracing;
import dev.junction.gateway.vkey.KeyService;
import dev.junction.gateway.vkey.SpendMetrics;
import dev.junction.gateway.vkey.SpendStage;
import dev.junction.gateway.vkey.VirtualKeysProperties;
import dev.junction.netty.HttpServerLimits;
import dev.junction.netty.RejectedRequests;
import dev.junction.redis.RedisConnector;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.github.resilience4j.retry.RetryRegistry;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import tools.jackson.databind.ObjectMapper;

import org.springframework.ai.embedding.EmbeddingModel;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.core.env.Environment;
import org.springframework.http.server.reactive.HttpHandlerDecoratorFactory;

/**
 * Wires the gateway: providers, routing, the pipeline's stages in order, and the HTTP
 * edge.
 */
@Configuration(proxyBeanMethods = false)
public class GatewayConfiguration {

	@Bean
	ProviderRegistry providerRegistry(GatewayProperties properties, ObjectMapper mapper, Environment environment,
			ListableBeanFactory beans) {
		return new ProviderFactory(mapper, environment,
				(name) -> (beans.containsBean(name) && beans.isTypeMatch(name, EmbeddingModel.class))
						? beans.getBean(name, EmbeddingModel.class) : null)
			.create(properties);
	}

	@Bean
	ProvidersHealthIndicator providersHealthIndicator(ProviderRegistry providers) {
		return new ProvidersHealthIndicator(providers);
	}

	@Bean
	ModelRouter modelRouter(ProviderRegistry providers, GatewayProperties properties) {
		Map<String, List<String>> aliases = new LinkedHashMap<>();
		properties.models().forEach((alias, config) -> aliases.put(alias, config.targets()));
		return new ModelRouter(providers.names(), aliases, GatewayProperties.PREFIX + ".models");
	}

	/**
	 * Keeps the gateway's retry and circuit-breaker rules under any Resilience4j
	 * configuration.
	 */
	@Bean
	static GatewayRulesRegistrar gatewayRulesRegistrar() {
		return new GatewayRulesRegistrar();
	}

	@Bean
	GatewayMetrics gatewayMetrics(MeterRegistry registry) {
		return new GatewayMetrics(registry);
	}

	@Bean
	BucketStore bucketStore(GatewayProperties properties, ObjectProvider<RedisConnector> redis) {
		RedisConnector connector = redis.getIfAvailable();
		return (connector != null) ? new RedisBucketStore(connector, properties.rateLimit().window())
				: new LocalBucketStore(properties.rateLimit().window().multipliedBy(2));
	}

	@Bean
	ResponseStore responseStore(GatewayProperties properties, ObjectProvider<RedisConnector> redis, ObjectMapper mapper,
			MeterRegistry registry) {
		RedisConnector connector = redis.getIfAvailable();
		GatewayProperties.Cache cache = properties.cache();
		return (connector != null) ? new RedisResponseStore(connector, cache.ttl(), mapper, registry)
				: new LocalResponseStore(cache.ttl(), cache.maxEntries());
	}

	/**
	 * Every provider's permit and key meters, bound by Spring Boot to the application's
	 * registry.
	 */
	@Bean
	MeterBinder providerMeters(ProviderRegistry providers) {
		return (registry) -> providers.all().forEach((entry) -> {
			entry.limiter().bindTo(registry);
			entry.keys().bindTo(registry);
		});
	}

	/**
	 * The pipeline, outermost first: metrics, rate limits, routing, spend (prices,
	 * virtual keys' models, limits and budgets), cache, fallback across the route's
	 * targets, retries per target, the provider's permits and keys, the circuit breaker
	 * per key, and the provider call (which keeps the provider's one timeout).
	 */
	@Bean
	ChatPipeline chatPipeline(GatewayProperties properties, GatewayMetrics metrics, ProviderRegistry providers,
			ModelRouter router, BucketStore buckets, ResponseStore responses, ObjectMapper mapper,
			MeterRegistry registry, RetryRegistry retries, CircuitBreakerRegistry breakers, SpendStage spend,
			GatewayKeys gatewayKeys, RequestTracing tracing) {
		List<ChatStage> stages = new ArrayList<>();
		stages.add(new MetricsStage(metrics, providers, gatewayKeys));
		if (properties.rateLimit().enabled()) {
			stages.add(new RateLimitStage(rateLimits(properties.rateLimit()), buckets, registry));
		}
		stages.add(new RoutingStage(router));
		stages.add(spend);
		if (properties.cache().enabled()) {
			stages.add(new ResponseCacheStage(responses,
					new CachePolicy(properties.cache().sharedNamespace(), sampledAliases(properties), providers),
					mapper, registry));
		}
		stages.add(new FallbackStage(registry));
		stages.add(new RetryStage(retries));
		stages.add(new PoolStage(providers));
		stages.add(new CircuitBreakerStage(breakers));
		stages.add(new ProviderStage(providers, tracing));
		return new ChatPipeline(stages);
	}

	@Bean
	PriceTable priceTable(PricesProperties prices, ObjectMapper mapper) {
		return PriceTable.bundledWith(prices.prices(), mapper);
	}

	@Bean
	SpendStage spendStage(ObjectProvider<KeyService> keys, PriceTable prices, MeterRegistry registry,
			BucketStore buckets, VirtualKeysProperties properties) {
		return new SpendStage(keys.getIfAvailable(), prices, new SpendMetrics(registry, properties.metricsMaxKeys()),
				buckets, properties.defaultMaxTokens(), registry);
	}

	private static Set<String> sampledAliases(GatewayProperties properties) {
		Set<String> aliases = new HashSet<>();
		properties.models().forEach((alias, config) -> {
			if (config.cacheSampled()) {
				aliases.add(alias);
			}
		});
		return aliases;
	}

	/** The rate-limit budgets as configured. */
	public static RateLimits rateLimits(GatewayProperties.RateLimit limits) {
		return new RateLimits(limits.requests(), limits.tokens(), limits.window(), limits.defaultReservation(),
				limits.failOpen(), GatewayProperties.PREFIX + ".rate-limit");
	}

	@Bean
	RequestBodies requestBodies(GatewayProperties properties) {
		return new RequestBodies(properties.http().maxBodySize().toBytes());
	}

	@Bean
	OpenAiErrors openAiErrors(ObjectMapper mapper, RequestBodies bodies) {
		return new OpenAiErrors(mapper, bodies.maxBytes());
	}

	@Bean
	AnthropicErrors anthropicErrors(ObjectMapper mapper) {
		return new AnthropicErrors(mapper);
	}

	@Bean
	ErrorBodies errorBodies(OpenAiErrors errors, AnthropicErrors anthropic) {
		return new ErrorBodies(errors, anthropic);
	}

	@Bean
	OpenAiErrorWebExceptionHandler openAiErrorWebExceptionHandler(OpenAiErrors errors, ErrorBodies bodies) {
		return new OpenAiErrorWebExceptionHandler(errors, bodies);
	}

	@Bean
	EntryPoints entryPoints(RequestBodies bodies, ObjectMapper mapper, OpenAiErrors errors) {
		return new EntryPoints(bodies, mapper, errors);
	}

	@Bean
	EmbeddingsHandler embeddingsHandler(ChatPipeline pipeline, EntryPoints entryPoints) {
		return new EmbeddingsHandler(pipeline, entryPoints);
	}

	@Bean
	ResponsesHandler responsesHandler(ChatPipeline pipeline, EntryPoints entryPoints, ObjectMapper mapper) {
		return new ResponsesHandler(pipeline, entryPoints, mapper);
	}

	@Bean
	MessagesHandler messagesHandler(ChatPipeline pipeline, EntryPoints entryPoints, ObjectMapper mapper,
			AnthropicErrors anthropic, MessagesProperties messages) {
		return new MessagesHandler(pipeline, entryPoints, mapper, anthropic, messages.pingInterval());
	}

	@Bean
	ChatCompletionsHandler chatCompletionsHandler(ChatPipeline pipeline, RequestBodies bodies, ObjectMapper mapper,
			OpenAiErrors errors) {
		return new ChatCompletionsHandler(pipeline, bodies, mapper, errors);
	}

	@Bean
	ModelsHandler modelsHandler(ProviderRegistry providers, ModelRouter router, ObjectMapper mapper) {
		return new ModelsHandler(providers, router, mapper);
	}

	@Bean
	GatewayKeys gatewayKeys(GatewayProperties properties) {
		return new GatewayKeys(properties.auth().keys(), properties.auth().adminKeys());
	}

	/** How long a request body may stop arriving before it is answered 408. */
	@Bean
	HttpServerLimits httpServerLimits(GatewayProperties properties) {
		return HttpServerLimits.DEFAULTS.withReadTimeout(properties.http().readTimeout());
	}

	/**
	 * Requests the server refuses before any handler runs (414, 431), answered in
	 * Anthropic's error shape on the Messages API and in OpenAI's everywhere else.
	 */
	@Bean
	RejectedRequests rejectedRequests(ErrorBodies bodies) {
		return (status, detail, path, elapsedNanos) -> {
			InvalidRequestException refusal = InvalidRequestException.refusedByServer(status, detail);
			String requestId = RequestId.generate();
			byte[] body = bodies.body((path != null) ? path : "/", refusal, requestId);
			return new RejectedRequests.Answer("application/json", body,
					Map.of(RequestId.HEADER, requestId, ServerTiming.HEADER, ServerTiming.of(elapsedNanos, 0)));
		};
	}

	/**
	 * Request ids and the access log, around everything else, error handlers included.
	 */
	@Bean
	@Order(Ordered.HIGHEST_PRECEDENCE)
	HttpHandlerDecoratorFactory requestIdHandler() {
		return RequestIdHandler.decorator();
	}

	@Bean
	@Order(Ordered.HIGHEST_PRECEDENCE)
	GatewayTimingFilter gatewayTimingFilter(GatewayMetrics metrics) {
		return new GatewayTimingFilter(metrics);
	}

	@Bean
	@Order(Ordered.HIGHEST_PRECEDENCE + 10)
	GatewayKeyFilter gatewayKeyFilter(GatewayKeys keys, ObjectProvider<KeyService> issued) {
		return new GatewayKeyFilter(keys, issued.getIfAvailable());
	}

}
