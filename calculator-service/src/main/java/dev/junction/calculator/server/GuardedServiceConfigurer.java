package dev.junction.calculator.server;

import dev.junction.calculator.server.internal.RequestParsingGuard;
import io.grpc.BindableService;
import io.grpc.ServerServiceDefinition;

import org.springframework.context.ApplicationContext;
import org.springframework.grpc.server.GrpcServerFactory;
import org.springframework.grpc.server.service.DefaultGrpcServiceConfigurer;
import org.springframework.grpc.server.service.GrpcServiceSpec;

/**
 * Spring gRPC's configuration of every service (global and per-service interceptors),
 * each service behind a {@link RequestParsingGuard}: a client sending a request message
 * that does not parse gets {@code INVALID_ARGUMENT}, and the server logs no error for it.
 */
class GuardedServiceConfigurer extends DefaultGrpcServiceConfigurer {

	GuardedServiceConfigurer(ApplicationContext context) {
		super(context);
	}

	@Override
	public ServerServiceDefinition configure(GrpcServiceSpec spec, GrpcServerFactory serverFactory) {
		BindableService service = spec.service();
		BindableService guarded = () -> RequestParsingGuard.guard(service.bindService());
		return super.configure(new GrpcServiceSpec(guarded, spec.serviceInfo()), serverFactory);
	}

}
