package dev.junction.gateway.rpc;

import java.util.ArrayList;
import java.util.List;

import dev.junction.gateway.auth.GatewayKeys;
import dev.junction.gateway.cache.ResponseStore;
import dev.junction.gateway.calculator.CalculatorClient;
import dev.junction.gateway.calculator.CalculatorProperties;
import dev.junction.gateway.calculator.LazyCalculator;
import dev.junction.gateway.chat.RequestBodies;
import dev.junction.gateway.config.GatewayConfiguration;
import dev.junction.gateway.config.GatewayProperties;
import dev.junction.gateway.error.OpenAiErrors;
import dev.junction.gateway.pipeline.ChatPipeline;
import dev.junction.gateway.provider.ProviderRegistry;
import dev.junction.gateway.ratelimit.BucketStore;
import dev.junction.gateway.ratelimit.RateLimitStage;
import dev.junction.gateway.vkey.KeyService;
import io.micrometer.core.instrument.MeterRegistry;
import reactor.core.publisher.Mono;
import tools.jackson.databind.ObjectMapper;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.health.contributor.ReactiveHealthIndicator;
import org.springframework.boot.health.registry.ReactiveHealthContributorRegistry;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpMethod;
import org.springframework.http.server.reactive.HttpHandlerDecoratorFactory;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.ServerResponse;
import org.springframework.web.server.MethodNotAllowedException;

import static org.springframework.web.reactive.function.server.RequestPredicates.GET;
import static org.springframework.web.reactive.function.server.RequestPredicates.POST;
import static org.springframework.web.reactive.function.server.RequestPredicates.path;
import static org.springframework.web.reactive.function.server.RouterFunctions.route;

/**
 * The procedures, defined once, and the JSON-RPC ({@code /rpc}) and tRPC ({@code /trpc})
 * routes serving them; another method on a tRPC path is answered 405 with {@code Allow}.
 */
@Configuration(proxyBeanMethods = false)
public class RpcConfiguration {

	@Bean
	Procedures procedures(ProviderRegistry providers, ObjectProvider<CalculatorClient> calculatorClient,
			CalculatorProperties calculatorProperties, ChatPipeline pipeline, ObjectMapper mapper,
			RpcProperties properties, GatewayKeys keys, GatewayProperties gateway, BucketStore buckets,
			MeterRegistry registry, ResponseStore responses, ObjectProvider<KeyService> keyService,
			ObjectProvider<ReactiveHealthContributorRegistry> health) {
		LazyCalculator calculator = new LazyCalculator(calculatorClient, calculatorProperties);
		List<Procedure> all = new ArrayList<>();
		all.addAll(new SystemProcedures(providers, calculator, properties, redisHealth(health.getIfAvailable()))
			.procedures());
		all.addAll(new AdminProcedures(registry, gateway, properties, providers, responses, buckets.shared())
			.procedures());
		all.add(new UserInfoProcedure(keyService.getIfAvailable(), keys, gateway).procedure());
		all.addAll(new AiProcedures(pipeline, mapper, properties, providers).procedures());
		all.addAll(new CalculatorProcedures(calculator).procedures());
		// The same buckets as the pipeline's rate-limit stage: one budget per client for
		// everything.
		RequestBudget budget = gateway.rateLimit().enabled()
				? new RateLimitStage(GatewayConfiguration.rateLimits(gateway.rateLimit()), buckets,
						registry)::takeRequest
				: RequestBudget.UNLIMITED;
		return new Procedures(OpenRpc.withDiscover(all), keys, budget);
	}

	/**
	 * The {@code redis} indicator of {@code /actuator/health}, or null when Redis is not
	 * configured.
	 */
	private static ReactiveHealthIndicator redisHealth(ReactiveHealthContributorRegistry health) {
		return (health != null && health.getContributor("redis") instanceof ReactiveHealthIndicator redis) ? redis
				: null;
	}

	@Bean
	TrpcTransformer trpcTransformer(RpcProperties properties) {
		return TrpcTransformer.named(properties.trpcTransformer());
	}

	@Bean
	RpcErrors rpcErrors(OpenAiErrors errors, ObjectMapper mapper) {
		return new RpcErrors(errors, mapper);
	}

	@Bean
	RpcErrorWebExceptionHandler rpcErrorWebExceptionHandler(RpcErrors errors, ObjectMapper mapper,
			TrpcTransformer transformer) {
		return new RpcErrorWebExceptionHandler(errors, mapper, transformer);
	}

	@Bean
	JsonRpcHandler jsonRpcHandler(Procedures procedures, RpcErrors errors, RequestBodies bodies, ObjectMapper mapper,
			RpcProperties properties) {
		return new JsonRpcHandler(procedures, errors, bodies, mapper, properties.maxBatchSize());
	}

	@Bean
	TrpcHandler trpcHandler(Procedures procedures, RpcErrors errors, RequestBodies bodies, ObjectMapper mapper,
			RpcProperties properties, TrpcTransformer transformer) {
		return new TrpcHandler(procedures, errors, bodies, mapper, properties.maxBatchSize(), transformer);
	}

	/**
	 * The RPC endpoints served in front of WebFlux's dispatch, inside the request id's
	 * decorator; the routes below serve what goes the whole way.
	 */
	@Bean
	@Order(Ordered.LOWEST_PRECEDENCE)
	HttpHandlerDecoratorFactory rpcEndpoints(ApplicationContext context, JsonRpcHandler jsonRpc, TrpcHandler trpc) {
		return RpcEndpoints.decorator(context, jsonRpc, trpc);
	}

	@Bean
	RouterFunction<ServerResponse> rpcRoutes(JsonRpcHandler jsonRpc, TrpcHandler trpc) {
		return route(path("/rpc"), jsonRpc::handle).andRoute(GET("/trpc/{path}").or(POST("/trpc/{path}")), trpc::handle)
			.andRoute(path("/trpc/{path}"), (request) -> Mono
				.error(new MethodNotAllowedException(request.method(), List.of(HttpMethod.GET, HttpMethod.POST))));
	}

}
