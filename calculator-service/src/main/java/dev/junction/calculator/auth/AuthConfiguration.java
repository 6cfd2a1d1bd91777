package dev.junction.calculator.auth;

import java.time.Clock;

import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;
import org.springframework.grpc.server.GlobalServerInterceptor;

/**
 * Wires client authentication. mtls is applied to the server's transport by
 * {@link MtlsEnvironmentPostProcessor}; jwt adds a global interceptor.
 */
@Configuration(proxyBeanMethods = false)
public class AuthConfiguration {

	@Bean
	@GlobalServerInterceptor
	@Order(100)
	@ConditionalOnProperty(prefix = AuthProperties.PREFIX, name = "mode", havingValue = "jwt")
	JwtAuthenticationInterceptor jwtAuthenticationInterceptor(AuthProperties properties, MeterRegistry meters) {
		return new JwtAuthenticationInterceptor(new JwtVerifier(properties.jwt(), Clock.systemUTC()),
				properties.openServices(), meters);
	}

}
