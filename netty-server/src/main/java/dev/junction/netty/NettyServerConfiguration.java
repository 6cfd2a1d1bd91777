package dev.junction.netty;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.client.ReactorResourceFactory;
import org.springframework.http.server.reactive.HttpHandlerDecoratorFactory;

/**
 * Event loops and connection pools owned by this application rather than Reactor Netty's
 * process-wide ones, so that shutting this application down never takes down another one
 * running in the same JVM (and the other way round); and every response written on its
 * own connection's event loop ({@link OwnEventLoopResponses}).
 */
@Configuration(proxyBeanMethods = false)
public class NettyServerConfiguration {

	@Bean
	ReactorResourceFactory reactorResourceFactory() {
		ReactorResourceFactory factory = new ReactorResourceFactory();
		factory.setUseGlobalResources(false);
		return factory;
	}

	@Bean
	HttpHandlerDecoratorFactory ownEventLoopResponses() {
		return OwnEventLoopResponses.decorator();
	}

}
