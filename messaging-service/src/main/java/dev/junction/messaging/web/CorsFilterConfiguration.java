package dev.junction.messaging.web;

import dev.junction.netty.CrossOrigin;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.web.cors.reactive.CorsWebFilter;

/**
 * CORS on every path when origins are configured (see {@link CrossOrigin}). It runs
 * before the API key check and rate limits: a preflight carries no key, and is answered
 * here. A request that is not allowed gets a 403 problem.
 */
@Configuration(proxyBeanMethods = false)
@Conditional(CorsFilterConfiguration.OriginsConfigured.class)
class CorsFilterConfiguration {

	@Bean
	@Order(Ordered.HIGHEST_PRECEDENCE + 15)
	CorsWebFilter corsWebFilter(CorsProperties properties) {
		return CrossOrigin.filter(CorsProperties.PREFIX, properties, () -> ApiException
			.forbidden("Cross-origin request refused: its origin, method or headers are not allowed by this service."));
	}

	static final class OriginsConfigured extends CrossOrigin.OriginsConfigured {

		OriginsConfigured() {
			super(CorsProperties.PREFIX);
		}

	}

}
