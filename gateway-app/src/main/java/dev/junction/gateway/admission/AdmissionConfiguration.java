package dev.junction.gateway.admission;

import dev.junction.gateway.config.GatewayProperties;
import dev.junction.gateway.error.ErrorBodies;
import dev.junction.gateway.error.OpenAiErrors;
import dev.junction.netty.EventLoopDelay;
import reactor.netty.resources.LoopResources;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.client.ReactorResourceFactory;
import org.springframework.http.server.reactive.HttpHandlerDecoratorFactory;

/**
 * Admission in front of every handler: the delay probes on the server's event loops (the
 * application's own, from its {@link ReactorResourceFactory}), the
 * {@link AdmissionFilter}, just after CORS, so a shed preflight still carries its
 * headers, and {@link AdmissionShedding}, which sheds what the filter would refuse at
 * once before the application runs.
 */
@Configuration(proxyBeanMethods = false)
public class AdmissionConfiguration {

	@Bean
	EventLoopDelay eventLoopDelay(ObjectProvider<ReactorResourceFactory> resources, AdmissionProperties properties) {
		ReactorResourceFactory factory = resources.getIfAvailable();
		LoopResources loops = (factory != null) ? factory.getLoopResources() : null;
		if (loops == null) {
			throw new IllegalStateException("The server's event loops are not known: no ReactorResourceFactory");
		}
		return new EventLoopDelay(loops.onServer(LoopResources.DEFAULT_NATIVE), properties.probeInterval());
	}

	/**
	 * Sheds what admission refuses at once in front of the application, inside the
	 * request id's decorator.
	 */
	@Bean
	@Order(Ordered.HIGHEST_PRECEDENCE + 1)
	HttpHandlerDecoratorFactory admissionShedding(AdmissionFilter admission, OpenAiErrors errors, ErrorBodies bodies) {
		return AdmissionShedding.decorator(admission, errors, bodies);
	}

	@Bean
	@Order(Ordered.HIGHEST_PRECEDENCE + 7)
	AdmissionFilter admissionFilter(AdmissionProperties properties, GatewayProperties gateway, EventLoopDelay delay) {
		return new AdmissionFilter(properties, gateway.http().maxBodySize().toBytes(), delay);
	}

}
