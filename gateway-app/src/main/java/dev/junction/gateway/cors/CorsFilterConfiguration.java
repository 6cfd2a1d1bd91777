package dev.junction.gateway.cors;

import dev.junction.gateway.error.InvalidRequestException;
import dev.junction.netty.CrossOrigin;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.web.cors.reactive.CorsWebFilter;

/**
 * CORS on every path when origins are configured (see {@link CrossOrigin}). It runs
 * before the gateway key check: a preflight carries no credentials, and is answered here.
 * A request that is not allowed gets 403 in the endpoint's own error shape.
 */
@Configuration(proxyBeanMethods = false)
@Conditional(CorsFilterConfiguration.OriginsConfigured.class)
public class CorsFilterConfiguration {

	@Bean
	@Order(Ordered.HIGHEST_PRECEDENCE + 5)
	CorsWebFilter corsWebFilter(CorsProperties properties) {
		return CrossOrigin.filter(CorsProperties.PREFIX, properties, () -> InvalidRequestException
			.forbidden("Cross-origin request refused: its origin, method or headers are not allowed by this gateway."));
	}

	static final class OriginsConfigured extends CrossOrigin.OriginsConfigured {

		OriginsConfigured() {
			super(CorsProperties.PREFIX);
		}

	}

}
