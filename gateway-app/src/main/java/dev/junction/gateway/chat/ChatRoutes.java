package dev.junction.gateway.chat;

import java.util.List;

import reactor.core.publisher.Mono;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.HttpHandlerDecoratorFactory;
import org.springframework.web.reactive.function.server.HandlerFunction;
import org.springframework.web.reactive.function.server.RequestPredicate;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.ServerResponse;
import org.springframework.web.server.MethodNotAllowedException;

import static org.springframework.web.reactive.function.server.RequestPredicates.POST;
import static org.springframework.web.reactive.function.server.RequestPredicates.methods;
import static org.springframework.web.reactive.function.server.RequestPredicates.path;
import static org.springframework.web.reactive.function.server.RouterFunctions.route;

/**
 * The OpenAI-compatible routes, and {@code GET /health}. Another method on one of these
 * paths is answered 405 with {@code Allow}.
 */
@Configuration(proxyBeanMethods = false)
public class ChatRoutes {

	@Bean
	RouterFunction<ServerResponse> openAiRoutes(ChatCompletionsHandler completions, ModelsHandler models) {
		RequestPredicate chat = path("/v1/chat/completions").or(path("/ai/chat/completions"));
		RequestPredicate modelList = path("/v1/models").or(path("/ai/models"));
		RequestPredicate model = path("/v1/models/{*id}").or(path("/ai/models/{*id}"));
		return route(POST("/v1/chat/completions").or(POST("/ai/chat/completions")), completions::handle)
			.andRoute(read(modelList), models::list)
			.andRoute(read(model), models::one)
			.andRoute(read(path(HealthCheck.PATH)),
					(request) -> ServerResponse.ok().contentType(MediaType.APPLICATION_JSON).bodyValue(HealthCheck.UP))
			.andRoute(chat, notAllowed(HttpMethod.POST))
			.andRoute(modelList.or(model).or(path(HealthCheck.PATH)), notAllowed(HttpMethod.GET, HttpMethod.HEAD));
	}

	/**
	 * Health checks answered in front of the filters, inside the request id's decorator
	 * (which is first, outermost); the route above serves those that go the whole way.
	 */
	@Bean
	@Order(Ordered.LOWEST_PRECEDENCE)
	HttpHandlerDecoratorFactory healthCheck() {
		return HealthCheck.decorator();
	}

	/** GET, and HEAD, which answers the same headers without a body. */
	private static RequestPredicate read(RequestPredicate path) {
		return methods(HttpMethod.GET, HttpMethod.HEAD).and(path);
	}

	/** A 405 naming the methods the path takes in {@code Allow}. */
	public static HandlerFunction<ServerResponse> notAllowed(HttpMethod... allowed) {
		List<HttpMethod> methods = List.of(allowed);
		return (request) -> Mono.error(new MethodNotAllowedException(request.method(), methods));
	}

}
