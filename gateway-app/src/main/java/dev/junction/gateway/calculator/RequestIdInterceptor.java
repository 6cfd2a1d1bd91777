package dev.junction.gateway.calculator;

import dev.junction.gateway.requestid.RequestId;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptor;
import io.grpc.ForwardingClientCall;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;

/**
 * Sends the request id a call carries in its {@link #OPTION} as {@code x-request-id}
 * metadata.
 */
final class RequestIdInterceptor implements ClientInterceptor {

	/** The call option holding the request id. */
	static final CallOptions.Key<String> OPTION = CallOptions.Key.create("junction.request-id");

	static final Metadata.Key<String> KEY = Metadata.Key.of(RequestId.GRPC_KEY, Metadata.ASCII_STRING_MARSHALLER);

	@Override
	public <ReqT, RespT> ClientCall<ReqT, RespT> interceptCall(MethodDescriptor<ReqT, RespT> method,
			CallOptions options, Channel next) {
		String id = options.getOption(OPTION);
		if (id == null) {
			return next.newCall(method, options);
		}
		return new ForwardingClientCall.SimpleForwardingClientCall<>(next.newCall(method, options)) {
			@Override
			public void start(Listener<RespT> listener, Metadata headers) {
				headers.put(KEY, id);
				super.start(listener, headers);
			}
		};
	}

}
