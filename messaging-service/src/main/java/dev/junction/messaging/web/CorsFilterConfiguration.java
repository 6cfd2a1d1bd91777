package dev.junction.messaging.web;

import java.util.List;

import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.core.type.AnnotatedTypeMetadata;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.cors.reactive.CorsWebFilter;
import org.springframework.web.cors.reactive.DefaultCorsProcessor;
import org.springframework.web.cors.reactive.UrlBasedCorsConfigurationSource;

/**
 * CORS on every path with Spring's {@link CorsWebFilter}, when origins are configured. It runs
 * before the API key check and rate limits: a preflight carries no key, and is answered here.
 * A request from an origin, or with a method or headers, that is not allowed gets a 403 problem.
 */
@Configuration(proxyBeanMethods = false)
@Conditional(CorsFilterConfiguration.OriginsConfigured.class)
class CorsFilterConfiguration {

	@Bean
	@Order(Ordered.HIGHEST_PRECEDENCE + 15)
	CorsWebFilter corsWebFilter(CorsProperties properties) {
		UrlBasedCorsConfigurationSource source = new UrlBasedCorsConfigurationSource();
		source.registerCorsConfiguration("/**", properties.toCorsConfiguration());
		return new CorsWebFilter(source, new RejectingProcessor());
	}

	/** Refuses with a problem document rather than an empty 403. */
	static final class RejectingProcessor extends DefaultCorsProcessor {

		@Override
		protected void rejectRequest(ServerHttpResponse response) {
			throw ApiException.forbidden(
					"Cross-origin request refused: its origin, method or headers are not allowed by this service.");
		}

	}

	/** Whether {@code allowed-origins} or {@code allowed-origin-patterns} lists anything. */
	static final class OriginsConfigured extends SpringBootCondition {

		@Override
		public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
			Binder binder = Binder.get(context.getEnvironment());
			for (String name : List.of("allowed-origins", "allowed-origin-patterns")) {
				if (!binder.bind(CorsProperties.PREFIX + "." + name, Bindable.listOf(String.class))
					.orElse(List.of())
					.isEmpty()) {
					return ConditionOutcome.match(CorsProperties.PREFIX + "." + name + " is set");
				}
			}
			return ConditionOutcome.noMatch("no CORS origins configured");
		}

	}

}
