package dev.junction.gateway.messages;

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
 * Anthropic's Messages API routes; another method on them is answered 405 with
 * {@code Allow}.
 */
@Configuration(proxyBeanMethods = false)
public class MessagesRoutes {

	@Bean
	RouterFunction<ServerResponse> anthropicMessagesRoutes(MessagesHandler messages) {
		return route(POST("/v1/messages"), messages::messages)
			.andRoute(POST("/v1/messages/count_tokens"), messages::countTokens)
			.andRoute(path("/v1/messages").or(path("/v1/messages/count_tokens")),
					ChatRoutes.notAllowed(HttpMethod.POST));
	}

}
