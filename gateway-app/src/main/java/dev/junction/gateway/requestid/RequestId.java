package dev.junction.gateway.requestid;

import java.util.concurrent.ThreadLocalRandom;

import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpHeaders;
import org.springframework.web.server.ServerWebExchange;

/**
 * The id of one request: the client's {@value #HEADER} when it is a sane token (1 to
 * {@value #MAX_LENGTH} characters of letters, digits and {@code . _ : -}), otherwise the
 * trace id of the client's W3C {@value #TRACEPARENT}, otherwise a new one of 32 random
 * hex digits (the shape of a W3C trace id) from {@link ThreadLocalRandom}. It lives in
 * the response's {@value #HEADER} header from the moment the request arrives, so every
 * answer carries it and everything handling the request can read it there.
 */
public final class RequestId {

	/** The HTTP header that carries the id, both ways, and upstream to providers. */
	public static final String HEADER = "X-Request-Id";

	/** The gRPC metadata key that carries the id to calculator-service. */
	public static final String GRPC_KEY = "x-request-id";

	/** The W3C trace context header whose trace id stands in for a missing id. */
	public static final String TRACEPARENT = "traceparent";

	/** Key of the id in structured log events. */
	public static final String LOG_KEY = "request.id";

	static final int MAX_LENGTH = 64;

	private static final char[] HEX = "0123456789abcdef".toCharArray();

	private RequestId() {
	}

	/** The id of {@code exchange}'s request. */
	public static String of(ServerWebExchange exchange) {
		return of(exchange.getResponse().getHeaders());
	}

	/** The id set in {@code responseHeaders}, or {@code "none"}. */
	static String of(HttpHeaders responseHeaders) {
		String id = responseHeaders.getFirst(HEADER);
		return (id != null) ? id : "none";
	}

	/**
	 * {@code received} if it is acceptable, otherwise the trace id of {@code traceparent}
	 * if it is a valid W3C one, otherwise a new id.
	 */
	public static String acceptOrTrace(@Nullable String received, @Nullable String traceparent) {
		if (isAcceptable(received)) {
			return received;
		}
		String traceId = traceId(traceparent);
		return (traceId != null) ? traceId : generate();
	}

	/**
	 * The trace id of a version-00 W3C {@code traceparent}, or {@code null} if it is not
	 * one.
	 */
	static @Nullable String traceId(@Nullable String traceparent) {
		if (traceparent == null || traceparent.length() != 55 || !traceparent.startsWith("00-")
				|| traceparent.charAt(35) != '-' || traceparent.charAt(52) != '-') {
			return null;
		}
		String traceId = traceparent.substring(3, 35);
		for (int i = 0; i < traceId.length(); i++) {
			char c = traceId.charAt(i);
			if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
				return null;
			}
		}
		return traceId.equals("00000000000000000000000000000000") ? null : traceId;
	}

	static boolean isAcceptable(@Nullable String id) {
		if (id == null || id.isEmpty() || id.length() > MAX_LENGTH) {
			return false;
		}
		for (int i = 0; i < id.length(); i++) {
			char c = id.charAt(i);
			boolean ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-'
					|| c == '_' || c == '.' || c == ':';
			if (!ok) {
				return false;
			}
		}
		return true;
	}

	/** A new id: 32 random hex digits. */
	public static String generate() {
		ThreadLocalRandom random = ThreadLocalRandom.current();
		char[] id = new char[32];
		hex(random.nextLong(), id, 0);
		hex(random.nextLong(), id, 16);
		return new String(id);
	}

	private static void hex(long value, char[] out, int offset) {
		for (int i = 15; i >= 0; i--) {
			out[offset + i] = HEX[(int) (value & 0xF)];
			value >>>= 4;
		}
	}

}
