package dev.junction.calculator.server;

import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.grpc.server.service.GrpcServiceConfigurer;

/**
 * Malformed request messages are the client's error: see
 * {@link GuardedServiceConfigurer}.
 */
@Configuration(proxyBeanMethods = false)
public class MalformedRequestConfiguration {

	@Bean
	GrpcServiceConfigurer grpcServiceConfigurer(ApplicationContext context) {
		return new GuardedServiceConfigurer(context);
	}

}
