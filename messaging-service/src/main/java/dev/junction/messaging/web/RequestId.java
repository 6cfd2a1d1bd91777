package dev.junction.messaging.web;

import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

import org.springframework.web.server.ServerWebExchange;

/**
 * The id of one request, as received in {@value #HEADER} when it is a sane token (1 to 64
 * characters of letters, digits and {@code . _ : -}), else the trace id of the W3C
 * {@value #TRACEPARENT} received, else generated: 32 random hex digits, the shape of a
 * W3C trace id, drawn from {@link ThreadLocalRandom}.
 */
public final class RequestId {

	/** The header that carries the id, both ways. */
	public static final String HEADER = "X-Request-Id";

	/** The W3C trace context header whose trace id stands in for a missing id. */
	public static final String TRACEPARENT = "traceparent";

	/** The exchange attribute holding the id. */
	public static final String ATTRIBUTE = RequestId.class.getName();

	/** Key of the id in structured log events. */
	public static final String LOG_KEY = "request.id";

	private static final Pattern ACCEPTABLE = Pattern.compile("[A-Za-z0-9._:-]{1,64}");

	private static final Pattern TRACEPARENT_V0 = Pattern
		.compile("00-(?!0{32})([0-9a-f]{32})-[0-9a-f]{16}-[0-9a-f]{2}");

	private RequestId() {
	}

	/** The id of {@code exchange}'s request, or {@code "none"} outside a request. */
	public static String of(ServerWebExchange exchange) {
		String id = exchange.getAttribute(ATTRIBUTE);
		return (id != null) ? id : "none";
	}

	/**
	 * {@code received} if it is acceptable, otherwise the trace id of
	 * {@code traceparent}, otherwise a new id.
	 */
	static String acceptOrTrace(@Nullable String received, @Nullable String traceparent) {
		if (isAcceptable(received)) {
			return received;
		}
		Matcher trace = (traceparent != null) ? TRACEPARENT_V0.matcher(traceparent) : null;
		return (trace != null && trace.matches()) ? trace.group(1) : generate();
	}

	static boolean isAcceptable(@Nullable String id) {
		return id != null && ACCEPTABLE.matcher(id).matches();
	}

	static String generate() {
		ThreadLocalRandom random = ThreadLocalRandom.current();
		return String.format("%016x%016x", random.nextLong(), random.nextLong());
	}

}
