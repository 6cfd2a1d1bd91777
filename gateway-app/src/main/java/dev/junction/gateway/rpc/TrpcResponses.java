package dev.junction.gateway.rpc;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * tRPC v11 response shapes: {@code {"result":{"data":...}}}, error envelopes as tRPC's
 * default error formatter writes them (both through the transformer), and the HTTP status
 * of a response or a batch (207 when the members' statuses differ), following
 * {@code @trpc/server}'s {@code getHTTPStatusCode}.
 */
final class TrpcResponses {

	/** tRPC's error keys by HTTP status ({@code HTTP_CODE_TO_JSONRPC2}). */
	private static final Map<Integer, String> KEYS = Map.ofEntries(Map.entry(400, "BAD_REQUEST"),
			Map.entry(401, "UNAUTHORIZED"), Map.entry(402, "PAYMENT_REQUIRED"), Map.entry(403, "FORBIDDEN"),
			Map.entry(404, "NOT_FOUND"), Map.entry(405, "METHOD_NOT_SUPPORTED"), Map.entry(408, "TIMEOUT"),
			Map.entry(409, "CONFLICT"), Map.entry(412, "PRECONDITION_FAILED"), Map.entry(413, "PAYLOAD_TOO_LARGE"),
			Map.entry(415, "UNSUPPORTED_MEDIA_TYPE"), Map.entry(422, "UNPROCESSABLE_CONTENT"),
			Map.entry(428, "PRECONDITION_REQUIRED"), Map.entry(429, "TOO_MANY_REQUESTS"),
			Map.entry(499, "CLIENT_CLOSED_REQUEST"), Map.entry(500, "INTERNAL_SERVER_ERROR"),
			Map.entry(501, "NOT_IMPLEMENTED"), Map.entry(502, "BAD_GATEWAY"), Map.entry(503, "SERVICE_UNAVAILABLE"),
			Map.entry(504, "GATEWAY_TIMEOUT"));

	/** tRPC's JSON-RPC codes by key ({@code TRPC_ERROR_CODES_BY_KEY}). */
	private static final Map<String, Integer> CODES = Map.ofEntries(Map.entry("PARSE_ERROR", -32700),
			Map.entry("BAD_REQUEST", -32600), Map.entry("INTERNAL_SERVER_ERROR", -32603),
			Map.entry("NOT_IMPLEMENTED", -32603), Map.entry("BAD_GATEWAY", -32603),
			Map.entry("SERVICE_UNAVAILABLE", -32603), Map.entry("GATEWAY_TIMEOUT", -32603),
			Map.entry("UNAUTHORIZED", -32001), Map.entry("PAYMENT_REQUIRED", -32002), Map.entry("FORBIDDEN", -32003),
			Map.entry("NOT_FOUND", -32004), Map.entry("METHOD_NOT_SUPPORTED", -32005), Map.entry("TIMEOUT", -32008),
			Map.entry("CONFLICT", -32009), Map.entry("PRECONDITION_FAILED", -32012),
			Map.entry("PAYLOAD_TOO_LARGE", -32013), Map.entry("UNSUPPORTED_MEDIA_TYPE", -32015),
			Map.entry("UNPROCESSABLE_CONTENT", -32022), Map.entry("PRECONDITION_REQUIRED", -32028),
			Map.entry("TOO_MANY_REQUESTS", -32029), Map.entry("CLIENT_CLOSED_REQUEST", -32099));

	private TrpcResponses() {
	}

	/**
	 * The wire form of one call's answer: {@code {"result":{"data":…}}} or
	 * {@code {"error":…}}, through the transformer.
	 */
	static ObjectNode wire(ObjectMapper mapper, TrpcTransformer transformer, Answer answer) {
		ObjectNode response = mapper.createObjectNode();
		if (answer.error() == null) {
			response.putObject("result").set("data", transformer.output(answer.data()));
		}
		else {
			response.set("error", transformer.output(shape(mapper, answer.error(), answer.path())));
		}
		return response;
	}

	/** The body of a single call or of a batch (an array, in order). */
	static JsonNode body(ObjectMapper mapper, TrpcTransformer transformer, List<Answer> answers, boolean batch) {
		if (!batch) {
			return wire(mapper, transformer, answers.get(0));
		}
		return mapper.createArrayNode()
			.addAll(answers.stream().map((answer) -> wire(mapper, transformer, answer)).toList());
	}

	/**
	 * {@code {"message","code","data":{"code","httpStatus","path"}}}, as tRPC's default
	 * error formatter writes it, with our details if any.
	 */
	static ObjectNode shape(ObjectMapper mapper, RpcError error, @Nullable String path) {
		String key = key(error);
		ObjectNode body = mapper.createObjectNode().put("message", error.message()).put("code", CODES.get(key));
		ObjectNode data = body.putObject("data").put("code", key).put("httpStatus", httpStatus(key));
		if (path != null) {
			data.put("path", path);
		}
		if (error.data() != null) {
			data.set("details", error.data());
		}
		return body;
	}

	/** The HTTP status of one answer or a batch of them (207 when they differ). */
	static int status(Collection<Answer> answers) {
		int status = 0;
		for (Answer answer : answers) {
			int each = (answer.error() != null) ? httpStatus(key(answer.error())) : 200;
			if (status != 0 && status != each) {
				return 207;
			}
			status = each;
		}
		return (status != 0) ? status : 200;
	}

	/** The longest {@code Retry-After} among refused answers, if any. */
	static @Nullable Duration retryAfter(Collection<Answer> answers) {
		return answers.stream()
			.map(Answer::error)
			.filter((error) -> error != null && error.retryAfter() != null)
			.map(RpcError::retryAfter)
			.max(Duration::compareTo)
			.orElse(null);
	}

	/**
	 * One call's outcome: its data, or its error.
	 *
	 * @param path the procedure's path, if known
	 * @param data the result, when it succeeded
	 * @param error the failure, when it failed
	 */
	record Answer(@Nullable String path, @Nullable JsonNode data, @Nullable RpcError error) {

		static Answer of(String path, JsonNode data) {
			return new Answer(path, data, null);
		}

		static Answer failed(@Nullable String path, RpcError error) {
			return new Answer(path, null, error);
		}

	}

	private static String key(RpcError error) {
		if (error.code() == RpcError.PARSE_ERROR) {
			return "PARSE_ERROR";
		}
		return KEYS.getOrDefault(error.httpStatus(), "INTERNAL_SERVER_ERROR");
	}

	private static int httpStatus(String key) {
		if (key.equals("PARSE_ERROR")) {
			return 400;
		}
		return KEYS.entrySet()
			.stream()
			.filter((entry) -> entry.getValue().equals(key))
			.mapToInt(Map.Entry::getKey)
			.findFirst()
			.orElse(500);
	}

}
