package dev.junction.gateway.chat;

import java.nio.charset.StandardCharsets;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.MediaType;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.ServerResponse;

import static org.springframework.web.reactive.function.server.RequestPredicates.GET;
import static org.springframework.web.reactive.function.server.RequestPredicates.POST;
import static org.springframework.web.reactive.function.server.RouterFunctions.route;

/** The OpenAI-compatible routes, and {@code GET /health}. */
@Configuration(proxyBeanMethods = false)
public class ChatRoutes {

	private static final byte[] UP = "{\"status\":\"UP\"}".getBytes(StandardCharsets.US_ASCII);

	@Bean
	RouterFunction<ServerResponse> openAiRoutes(ChatCompletionsHandler completions, ModelsHandler models) {
		return route(POST("/v1/chat/completions"), completions::handle)
			.andRoute(POST("/ai/chat/completions"), completions::handle)
			.andRoute(GET("/v1/models"), models::handle)
			.andRoute(GET("/ai/models"), models::handle)
			.andRoute(GET("/health"),
					(request) -> ServerResponse.ok().contentType(MediaType.APPLICATION_JSON).bodyValue(UP));
	}

}
