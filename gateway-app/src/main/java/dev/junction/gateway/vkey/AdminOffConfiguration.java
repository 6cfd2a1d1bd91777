package dev.junction.gateway.vkey;

import dev.junction.gateway.error.InvalidRequestException;
import reactor.core.publisher.Mono;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.type.AnnotatedTypeMetadata;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.ServerResponse;

import static org.springframework.web.reactive.function.server.RequestPredicates.path;
import static org.springframework.web.reactive.function.server.RouterFunctions.route;

/** Without virtual keys, the admin API answers every call that it is off, and why. */
@Configuration(proxyBeanMethods = false)
@Conditional(AdminOffConfiguration.Off.class)
public class AdminOffConfiguration {

	@Bean
	RouterFunction<ServerResponse> adminOffRoutes() {
		return route(path("/admin/**"),
				(request) -> Mono.error(InvalidRequestException.forbidden(AdminKeysHandler.OFF)));
	}

	static final class Off extends VirtualKeysCondition {

		@Override
		public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
			return !super.matches(context, metadata);
		}

	}

}
