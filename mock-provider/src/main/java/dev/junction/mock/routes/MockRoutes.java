package dev.junction.mock.routes;

import java.util.function.Function;

import dev.junction.mock.anthropic.AnthropicDialect;
import dev.junction.mock.anthropic.AnthropicTokenCounter;
import dev.junction.mock.auth.ApiKeys;
import dev.junction.mock.behavior.BehaviorResolver;
import dev.junction.mock.config.MockProperties;
import dev.junction.mock.embeddings.EmbeddingsResponder;
import dev.junction.mock.models.ModelCatalog;
import dev.junction.mock.openai.OpenAiDialect;
import dev.junction.mock.pipeline.ChatResponder;
import dev.junction.mock.pipeline.ErrorFormat;
import dev.junction.mock.pipeline.MockEndpoint;
import dev.junction.mock.pipeline.MockError;
import dev.junction.mock.pipeline.Responder;
import dev.junction.mock.requestid.RequestIdFilter;
import dev.junction.mock.responses.ResponsesResponder;
import dev.junction.mock.stats.MockStats;
import dev.junction.mock.stats.Route;
import dev.junction.mock.stats.StatsHandler;
import reactor.core.publisher.Mono;

import org.springframework.http.MediaType;
import org.springframework.web.reactive.function.server.RequestPredicates;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;

/**
 * The emulator's routes, the same whether Spring Boot or {@code MockProviderServer}
 * serves them.
 */
public final class MockRoutes {

	private MockRoutes() {
	}

	/** Every route, answering as the properties say and counting into the stats. */
	public static RouterFunction<ServerResponse> create(MockProperties properties, MockStats stats) {
		BehaviorResolver behaviors = new BehaviorResolver(properties);
		ApiKeys apiKeys = new ApiKeys(properties.apiKeys());
		int maxRequestBytes = (int) Math.min(Integer.MAX_VALUE, properties.http().maxBodySize().toBytes());
		OpenAiDialect openAi = new OpenAiDialect();
		AnthropicDialect anthropic = new AnthropicDialect();
		ModelCatalog catalog = new ModelCatalog(properties.models());
		Function<ServerRequest, ErrorFormat> clientShape = (request) -> ModelCatalog.anthropic(request) ? anthropic
				: openAi;
		EndpointFactory endpoints = (route, errors, responder) -> new MockEndpoint(route, errors, responder, behaviors,
				apiKeys, stats, maxRequestBytes, properties.http().readTimeout());
		StatsHandler statsHandler = new StatsHandler(stats);
		return RouterFunctions.route()
			.POST("/v1/chat/completions",
					endpoints.create(Route.CHAT_COMPLETIONS, (request) -> openAi, new ChatResponder(openAi)))
			.POST("/v1/messages",
					endpoints.create(Route.MESSAGES, (request) -> anthropic, new ChatResponder(anthropic)))
			.POST("/v1/messages/count_tokens",
					endpoints.create(Route.COUNT_TOKENS, (request) -> anthropic, new AnthropicTokenCounter()))
			.POST("/v1/responses", endpoints.create(Route.RESPONSES, (request) -> openAi, new ResponsesResponder()))
			.POST("/v1/embeddings", endpoints.create(Route.EMBEDDINGS, (request) -> openAi, new EmbeddingsResponder()))
			.GET("/v1/models", endpoints.create(Route.MODELS, clientShape, catalog.list()))
			.GET("/v1/models/{id}", endpoints.create(Route.MODELS, clientShape, catalog.one()))
			.GET("/mock/stats", statsHandler::show)
			.DELETE("/mock/stats", statsHandler::reset)
			.route(RequestPredicates.path("/v1/**"), (request) -> unknownUrl(request, clientShape.apply(request)))
			.filter(new RequestIdFilter())
			.build();
	}

	private static Mono<ServerResponse> unknownUrl(ServerRequest request, ErrorFormat format) {
		MockError error = new MockError(404,
				"Unknown request URL: " + request.method() + " " + request.path() + ". Please check the URL for typos.",
				null, "unknown_url");
		return ServerResponse.status(404).contentType(MediaType.APPLICATION_JSON).bodyValue(format.body(error));
	}

	@FunctionalInterface
	private interface EndpointFactory {

		MockEndpoint create(Route route, Function<ServerRequest, ErrorFormat> errors, Responder responder);

	}

}
