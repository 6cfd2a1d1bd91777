package dev.junction.gateway.config;

import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.webflux.actuate.endpoint.web.AbstractWebFluxEndpointHandlerMapping;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Actuator's endpoint mappings asked after the gateway's routes rather than before them,
 * as Actuator orders them by default: no route of the gateway lies under
 * {@code /actuator}, and every gateway request (health checks included) is then matched
 * without first trying each Actuator mapping's conditions, which parse and sort the
 * request's {@code Accept}.
 */
@Configuration(proxyBeanMethods = false)
public class ActuatorAfterRoutes {

	/** After {@code RouterFunctionMapping} (-1), before resource handlers. */
	static final int ORDER = 0;

	@Bean
	static BeanPostProcessor actuatorMappingOrder() {
		return new BeanPostProcessor() {

			@Override
			public Object postProcessBeforeInitialization(Object bean, String beanName) {
				if (bean instanceof AbstractWebFluxEndpointHandlerMapping mapping) {
					mapping.setOrder(ORDER);
				}
				return bean;
			}

		};
	}

}
