package dev.junction.calculator.server;

import java.util.regex.Pattern;

import io.grpc.ForwardingServerCall;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the caller's request id from {@code x-request-id} metadata (ignored unless it is 1 to
 * 64 characters of letters, digits and {@code . _ : -}), echoes it in the response headers
 * (or the trailers of a trailers-only answer), and writes it as {@value #LOG_KEY} in the log
 * line of the call: DEBUG for every call, WARN for a call that failed unexpectedly. Calls
 * without an id cost one metadata lookup.
 */
public final class RequestIdInterceptor implements ServerInterceptor {

	/** The metadata key of the request id. */
	public static final Metadata.Key<String> KEY = Metadata.Key.of("x-request-id", Metadata.ASCII_STRING_MARSHALLER);

	/** Key of the id in structured log events. */
	public static final String LOG_KEY = "request.id";

	private static final Pattern ACCEPTABLE = Pattern.compile("[A-Za-z0-9._:-]{1,64}");

	private static final Logger logger = LoggerFactory.getLogger(RequestIdInterceptor.class);

	@Override
	public <ReqT, RespT> ServerCall.Listener<ReqT> interceptCall(ServerCall<ReqT, RespT> call, Metadata headers,
			ServerCallHandler<ReqT, RespT> next) {
		String id = headers.get(KEY);
		if (id == null || !isAcceptable(id)) {
			return next.startCall(call, headers);
		}
		return next.startCall(new EchoingCall<>(call, id), headers);
	}

	static boolean isAcceptable(String id) {
		return ACCEPTABLE.matcher(id).matches();
	}

	/** Puts the id in the response headers (or in the trailers of a trailers-only answer) and logs the call. */
	private static final class EchoingCall<ReqT, RespT> extends ForwardingServerCall.SimpleForwardingServerCall<ReqT, RespT> {

		private final String id;

		private boolean headersSent;

		EchoingCall(ServerCall<ReqT, RespT> delegate, String id) {
			super(delegate);
			this.id = id;
		}

		@Override
		public void sendHeaders(Metadata headers) {
			this.headersSent = true;
			headers.put(KEY, this.id);
			super.sendHeaders(headers);
		}

		@Override
		public void close(Status status, Metadata trailers) {
			if (!this.headersSent) {
				trailers.put(KEY, this.id);
			}
			log(status);
			super.close(status, trailers);
		}

		private void log(Status status) {
			boolean unexpected = switch (status.getCode()) {
				case UNKNOWN, INTERNAL, DATA_LOSS -> true;
				default -> false;
			};
			if (unexpected) {
				logger.atWarn()
					.setMessage("{} failed: {} {}")
					.addArgument(getMethodDescriptor().getFullMethodName())
					.addArgument(status.getCode())
					.addArgument(status.getDescription())
					.addKeyValue(LOG_KEY, this.id)
					.setCause(status.getCause())
					.log();
			}
			else if (logger.isDebugEnabled()) {
				logger.atDebug()
					.setMessage("{} {}")
					.addArgument(getMethodDescriptor().getFullMethodName())
					.addArgument(status.getCode())
					.addKeyValue(LOG_KEY, this.id)
					.log();
			}
		}

	}

}
