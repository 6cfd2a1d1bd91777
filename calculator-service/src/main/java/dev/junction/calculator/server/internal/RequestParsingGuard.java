package dev.junction.calculator.server.internal;

import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;

import io.grpc.MethodDescriptor;
import io.grpc.ServerMethodDefinition;
import io.grpc.ServerServiceDefinition;
import io.grpc.ServiceDescriptor;

/**
 * Rewrites a service so that its request messages are parsed by {@link ParsingListener}
 * rather than inside grpc-java, which answers a message that does not parse with
 * {@code UNKNOWN} "Application error" and logs it as an error of the server. Responses,
 * method names and the schema that reflection serves are unchanged.
 */
public final class RequestParsingGuard {

	private static final MethodDescriptor.Marshaller<InputStream> UNPARSED = new MethodDescriptor.Marshaller<>() {

		@Override
		public InputStream stream(InputStream value) {
			return value;
		}

		@Override
		public InputStream parse(InputStream stream) {
			return stream;
		}

	};

	private RequestParsingGuard() {
	}

	/** The service with every method's requests parsed by the guard. */
	public static ServerServiceDefinition guard(ServerServiceDefinition service) {
		ServiceDescriptor original = service.getServiceDescriptor();
		ServiceDescriptor.Builder descriptor = ServiceDescriptor.newBuilder(original.getName())
			.setSchemaDescriptor(original.getSchemaDescriptor());
		List<ServerMethodDefinition<?, ?>> methods = new ArrayList<>();
		for (ServerMethodDefinition<?, ?> method : service.getMethods()) {
			ServerMethodDefinition<?, ?> guarded = guard(method);
			descriptor.addMethod(guarded.getMethodDescriptor());
			methods.add(guarded);
		}
		ServerServiceDefinition.Builder guarded = ServerServiceDefinition.builder(descriptor.build());
		methods.forEach(guarded::addMethod);
		return guarded.build();
	}

	private static <ReqT, RespT> ServerMethodDefinition<InputStream, RespT> guard(
			ServerMethodDefinition<ReqT, RespT> definition) {
		MethodDescriptor<ReqT, RespT> method = definition.getMethodDescriptor();
		MethodDescriptor<InputStream, RespT> unparsed = method.toBuilder(UNPARSED, method.getResponseMarshaller())
			.build();
		return ServerMethodDefinition.create(unparsed,
				(call, headers) -> new ParsingListener<>(
						definition.getServerCallHandler().startCall(new RequestTypedCall<>(call, method), headers),
						call, method));
	}

}
