package dev.junction.calculator.server;

import io.grpc.BindableService;
import io.grpc.protobuf.services.ProtoReflectionService;

import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Serves server reflection under its pre-v1 name ({@code grpc.reflection.v1alpha}) beside
 * the v1 service that Spring gRPC registers, because widely used tools (ghz, older
 * grpcurl and Postman releases) only speak v1alpha.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnBooleanProperty(name = "spring.grpc.server.reflection.enabled", matchIfMissing = true)
public class LegacyReflectionConfiguration {

	@Bean
	@SuppressWarnings("deprecation")
	BindableService legacyServerReflection() {
		return ProtoReflectionService.newInstance();
	}

}
