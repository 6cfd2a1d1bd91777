package dev.junction.gateway.responses;

import dev.junction.gateway.chat.ChatRoutes;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpMethod;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.ServerResponse;

import static org.springframework.web.reactive.function.server.RequestPredicates.POST;
import static org.springframework.web.reactive.function.server.RequestPredicates.path;
import static org.springframework.web.reactive.function.server.RouterFunctions.route;

/**
 * OpenAI's Responses API route; another method on it is answered 405 with {@code Allow}.
 */
@Configuration(proxyBeanMethods = false)
public class ResponsesRoutes {

	@Bean
	RouterFunction<ServerResponse> openAiResponsesRoutes(ResponsesHandler responses) {
		return route(POST("/v1/responses"), responses::create).andRoute(path("/v1/responses"),
				ChatRoutes.notAllowed(HttpMethod.POST));
	}

}
