package dev.junction.calculator.server;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.grpc.ForwardingServerCall;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.spi.LoggingEventBuilder;

/**
 * Reads the caller's request id from {@code x-request-id} metadata (ignored unless it is
 * 1 to 64 characters of letters, digits and {@code . _ : -}; the trace id of a W3C
 * {@code traceparent} stands in for a missing one), echoes it in the response headers (or
 * the trailers of a trailers-only answer), and writes it as {@value #LOG_KEY}, with the
 * trace id as {@value #TRACE_LOG_KEY}, in the log line of the call: DEBUG for every call,
 * WARN for a call that failed unexpectedly. Calls without either cost two metadata
 * lookups.
 */
public final class RequestIdInterceptor implements ServerInterceptor {

	/** The metadata key of the request id. */
	public static final Metadata.Key<String> KEY = Metadata.Key.of("x-request-id", Metadata.ASCII_STRING_MARSHALLER);

	/** The metadata key of the W3C trace context. */
	public static final Metadata.Key<String> TRACEPARENT = Metadata.Key.of("traceparent",
			Metadata.ASCII_STRING_MARSHALLER);

	/** Key of the id in structured log events. */
	public static final String LOG_KEY = "request.id";

	/** Key of the caller's trace id in structured log events. */
	public static final String TRACE_LOG_KEY = "trace.id";

	private static final Pattern TRACEPARENT_V0 = Pattern
		.compile("00-(?!0{32})([0-9a-f]{32})-[0-9a-f]{16}-[0-9a-f]{2}");

	private static final Pattern ACCEPTABLE = Pattern.compile("[A-Za-z0-9._:-]{1,64}");

	private static final Logger logger = LoggerFactory.getLogger(RequestIdInterceptor.class);

	@Override
	public <ReqT, RespT> ServerCall.Listener<ReqT> interceptCall(ServerCall<ReqT, RespT> call, Metadata headers,
			ServerCallHandler<ReqT, RespT> next) {
		String id = headers.get(KEY);
		String traceId = traceId(headers.get(TRACEPARENT));
		if (id == null || !isAcceptable(id)) {
			if (traceId == null) {
				return next.startCall(call, headers);
			}
			id = traceId;
		}
		return next.startCall(new EchoingCall<>(call, id, traceId), headers);
	}

	/** The trace id of a version-00 {@code traceparent}, or {@code null}. */
	static @Nullable String traceId(@Nullable String traceparent) {
		if (traceparent == null) {
			return null;
		}
		Matcher matcher = TRACEPARENT_V0.matcher(traceparent);
		return matcher.matches() ? matcher.group(1) : null;
	}

	static boolean isAcceptable(String id) {
		return ACCEPTABLE.matcher(id).matches();
	}

	/**
	 * Puts the id in the response headers (or in the trailers of a trailers-only answer)
	 * and logs the call.
	 */
	private static final class EchoingCall<ReqT, RespT>
			extends ForwardingServerCall.SimpleForwardingServerCall<ReqT, RespT> {

		private final String id;

		private final @Nullable String traceId;

		private boolean headersSent;

		EchoingCall(ServerCall<ReqT, RespT> delegate, String id, @Nullable String traceId) {
			super(delegate);
			this.id = id;
			this.traceId = traceId;
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
				withIds(logger.atWarn()).setMessage("{} failed: {} {}")
					.addArgument(getMethodDescriptor().getFullMethodName())
					.addArgument(status.getCode())
					.addArgument(status.getDescription())
					.setCause(status.getCause())
					.log();
			}
			else if (logger.isDebugEnabled()) {
				withIds(logger.atDebug()).setMessage("{} {}")
					.addArgument(getMethodDescriptor().getFullMethodName())
					.addArgument(status.getCode())
					.log();
			}
		}

		private LoggingEventBuilder withIds(LoggingEventBuilder event) {
			event.addKeyValue(LOG_KEY, this.id);
			return (this.traceId != null) ? event.addKeyValue(TRACE_LOG_KEY, this.traceId) : event;
		}

	}

}
