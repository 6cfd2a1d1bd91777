package dev.junction.calculator.server;

import dev.junction.calculator.v1.CalculatorGrpc;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.protobuf.services.HealthStatusManager;

import org.springframework.context.event.EventListener;
import org.springframework.grpc.server.lifecycle.GrpcServerShutdownEvent;
import org.springframework.grpc.server.lifecycle.GrpcServerStartedEvent;
import org.springframework.stereotype.Component;

/**
 * Keeps {@code grpc.health.v1.Health} truthful: the Calculator service is SERVING once
 * the server listens, and every service turns NOT_SERVING as soon as shutdown begins,
 * while in-flight calls are still allowed to finish, so load balancers stop sending new
 * ones.
 */
@Component
class ServingStatusListener {

	private final HealthStatusManager health;

	ServingStatusListener(HealthStatusManager health) {
		this.health = health;
	}

	@EventListener
	void onStarted(GrpcServerStartedEvent event) {
		this.health.setStatus(CalculatorGrpc.SERVICE_NAME, ServingStatus.SERVING);
	}

	@EventListener
	void onShutdown(GrpcServerShutdownEvent event) {
		this.health.enterTerminalState();
	}

}
