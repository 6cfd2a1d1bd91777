package dev.junction.calculator.auth;

import java.util.EnumMap;
import java.util.Map;
import java.util.Set;

import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * Refuses calls without a valid bearer token with {@code UNAUTHENTICATED}, except to the
 * configured open services (health and reflection by default). It runs inside the metrics
 * interceptor, so refused calls still show in the gRPC server metrics.
 */
public final class JwtAuthenticationInterceptor implements ServerInterceptor {

	/** Counter of refused calls, tagged by reason. */
	public static final String REJECTIONS_METER = "junction.calculator.auth.rejections";

	static final Metadata.Key<String> AUTHORIZATION = Metadata.Key.of("authorization",
			Metadata.ASCII_STRING_MARSHALLER);

	private final JwtVerifier verifier;

	private final Set<String> openServices;

	private final Map<JwtVerifier.Rejection, Counter> rejections = new EnumMap<>(JwtVerifier.Rejection.class);

	JwtAuthenticationInterceptor(JwtVerifier verifier, Set<String> openServices, MeterRegistry meters) {
		this.verifier = verifier;
		this.openServices = Set.copyOf(openServices);
		for (JwtVerifier.Rejection rejection : JwtVerifier.Rejection.values()) {
			this.rejections.put(rejection,
					Counter.builder(REJECTIONS_METER)
						.description("gRPC calls refused for missing or invalid credentials")
						.baseUnit("calls")
						.tag("reason", rejection.tag)
						.register(meters));
		}
	}

	@Override
	public <ReqT, RespT> ServerCall.Listener<ReqT> interceptCall(ServerCall<ReqT, RespT> call, Metadata headers,
			ServerCallHandler<ReqT, RespT> next) {
		if (this.openServices.contains(call.getMethodDescriptor().getServiceName())) {
			return next.startCall(call, headers);
		}
		JwtVerifier.Rejection rejection = this.verifier.verify(headers.get(AUTHORIZATION));
		if (rejection == null) {
			return next.startCall(call, headers);
		}
		this.rejections.get(rejection).increment();
		call.close(Status.UNAUTHENTICATED.withDescription(rejection.message), new Metadata());
		return new ServerCall.Listener<>() {
		};
	}

}
