package dev.junction.gateway.config;

import java.util.List;

import dev.junction.gateway.auth.GatewayKeyFilter;
import dev.junction.gateway.auth.GatewayKeys;
import dev.junction.gateway.chat.ChatCompletionsHandler;
import dev.junction.gateway.chat.ModelsHandler;
import dev.junction.gateway.chat.RequestBodies;
import dev.junction.gateway.error.OpenAiErrorWebExceptionHandler;
import dev.junction.gateway.error.OpenAiErrors;
import dev.junction.gateway.metrics.GatewayMetrics;
import dev.junction.gateway.metrics.GatewayTimingFilter;
import dev.junction.gateway.metrics.MetricsStage;
import dev.junction.gateway.pipeline.ChatPipeline;
import dev.junction.gateway.pipeline.ProviderStage;
import dev.junction.gateway.provider.ProviderFactory;
import dev.junction.gateway.provider.ProviderRegistry;
import dev.junction.gateway.routing.ModelRouter;
import dev.junction.gateway.routing.RoutingStage;
import io.micrometer.core.instrument.MeterRegistry;
import tools.jackson.databind.ObjectMapper;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.core.env.Environment;

/** Wires the gateway: providers, routing, the pipeline's stages in order, and the HTTP edge. */
@Configuration(proxyBeanMethods = false)
public class GatewayConfiguration {

	@Bean
	ProviderRegistry providerRegistry(GatewayProperties properties, ObjectMapper mapper, Environment environment) {
		return new ProviderFactory(mapper, environment).create(properties);
	}

	@Bean
	ModelRouter modelRouter(ProviderRegistry providers, GatewayProperties properties) {
		return new ModelRouter(providers.names(), properties.models());
	}

	@Bean
	GatewayMetrics gatewayMetrics(MeterRegistry registry) {
		return new GatewayMetrics(registry);
	}

	@Bean
	ChatPipeline chatPipeline(GatewayMetrics metrics, ProviderRegistry providers, ModelRouter router) {
		return new ChatPipeline(List.of(new MetricsStage(metrics, providers), new RoutingStage(router),
				new ProviderStage(providers)));
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
	OpenAiErrorWebExceptionHandler openAiErrorWebExceptionHandler(OpenAiErrors errors) {
		return new OpenAiErrorWebExceptionHandler(errors);
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

	@Bean
	@Order(Ordered.HIGHEST_PRECEDENCE)
	GatewayTimingFilter gatewayTimingFilter(GatewayMetrics metrics) {
		return new GatewayTimingFilter(metrics);
	}

	@Bean
	@Order(Ordered.HIGHEST_PRECEDENCE + 10)
	GatewayKeyFilter gatewayKeyFilter(GatewayKeys keys) {
		return new GatewayKeyFilter(keys);
	}

}
