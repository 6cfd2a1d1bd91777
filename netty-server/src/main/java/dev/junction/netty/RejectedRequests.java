package dev.junction.netty;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

import org.jspecify.annotations.Nullable;

/**
 * The answer to a request refused before it reaches the application: a request line (URL)
 * too long (414), headers too large (431), or a request that is not HTTP (400). Each
 * application answers in its protocol's shape with a bean of this type; without one the
 * answer is {@code application/problem+json}. Every answer carries a new
 * {@code X-Request-Id}.
 */
@FunctionalInterface
public interface RejectedRequests {

	/** The header carrying the request id. */
	String REQUEST_ID = "X-Request-Id";

	/**
	 * The answer to a refused request.
	 * @param status the HTTP status: 400, 414 or 431
	 * @param detail what is wrong, in the client's terms
	 * @param path the request's path (without query), possibly cut short, or null when it
	 * is unknown
	 * @param elapsedNanos time spent on the request so far
	 */
	Answer answer(int status, String detail, @Nullable String path, long elapsedNanos);

	/**
	 * A complete answer.
	 *
	 * @param contentType its media type
	 * @param body its body
	 * @param headers further headers ({@value #REQUEST_ID} among them)
	 */
	record Answer(String contentType, byte[] body, Map<String, String> headers) {
	}

	/**
	 * RFC 9457 problem details with {@code type} {@code about:blank}, as any service can
	 * answer.
	 */
	static RejectedRequests problemJson() {
		return (status, detail, path, elapsedNanos) -> new Answer("application/problem+json",
				("{\"type\":\"about:blank\",\"title\":\"" + title(status) + "\",\"status\":" + status + ",\"detail\":\""
						+ detail.replace("\\", "\\\\").replace("\"", "\\\"") + "\"}")
					.getBytes(StandardCharsets.UTF_8),
				Map.of(REQUEST_ID, newRequestId()));
	}

	/** A request id: 32 random hex digits, the shape of a W3C trace id. */
	static String newRequestId() {
		ThreadLocalRandom random = ThreadLocalRandom.current();
		return String.format("%016x%016x", random.nextLong(), random.nextLong());
	}

	private static String title(int status) {
		return switch (status) {
			case 414 -> "URI Too Long";
			case 431 -> "Request Header Fields Too Large";
			default -> "Bad Request";
		};
	}

}
