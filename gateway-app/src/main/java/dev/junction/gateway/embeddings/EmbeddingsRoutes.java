package dev.junction.gateway.embeddings;

import dev.junction.gateway.chat.ChatRoutes;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpMethod;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.ServerResponse;

import static org.springframework.web.reactive.function.server.RequestPredicates.POST;
import static org.springframework.web.reactive.function.server.RequestPredicates.path;
import static org.springframework.web.reactive.function.server.RouterFunctions.route;

/** OpenAI's embeddings route; another method on it is answered 405 with {@code Allow}. */
@Configuration(proxyBeanMethods = false)
public class EmbeddingsRoutes {

	@Bean
	RouterFunction<ServerResponse> openAiEmbeddingsRoutes(EmbeddingsHandler embeddings) {
		return route(POST("/v1/embeddings"), embeddings::create).andRoute(path("/v1/embeddings"),
				ChatRoutes.notAllowed(HttpMethod.POST));
	}

}
