package dev.junction.gateway.tracing;

import io.micrometer.tracing.propagation.Propagator;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The request's trace, passed on to providers and calculator-service when tracing is on.
 */
@Configuration(proxyBeanMethods = false)
public class TracingConfiguration {

	@Bean
	RequestTracing requestTracing(ObjectProvider<Propagator> propagator) {
		return new RequestTracing(propagator.getIfAvailable());
	}

}
