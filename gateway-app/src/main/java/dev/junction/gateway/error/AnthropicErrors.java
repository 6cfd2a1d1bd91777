package dev.junction.gateway.error;

import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The Anthropic error shape,
 * {@code {"type":"error","error":{"type","message"},"request_id"}}, for the Messages API:
 * the gateway's failures keep their status and get the error type Anthropic uses for it.
 */
public final class AnthropicErrors {

	/** The paths answered in this shape. */
	public static final String PATH_PREFIX = "/v1/messages";

	private final ObjectMapper mapper;

	public AnthropicErrors(ObjectMapper mapper) {
		this.mapper = mapper;
	}

	/** Whether a request path belongs to the Messages API. */
	public static boolean applies(String path) {
		return path.equals(PATH_PREFIX) || path.startsWith(PATH_PREFIX + "/");
	}

	/** The error as a JSON tree; also the data of a stream's {@code error} event. */
	public ObjectNode tree(GatewayException error, String requestId) {
		ObjectNode root = this.mapper.createObjectNode();
		root.put("type", "error");
		ObjectNode body = root.putObject("error");
		body.put("type", type(error.status()));
		body.put("message", error.getMessage());
		root.put("request_id", requestId);
		return root;
	}

	public byte[] body(GatewayException error, String requestId) {
		return this.mapper.writeValueAsBytes(tree(error, requestId));
	}

	/** Anthropic's error type for an HTTP status. */
	static String type(int status) {
		return switch (status) {
			case 401 -> "authentication_error";
			case 403 -> "permission_error";
			case 404 -> "not_found_error";
			case 413 -> "request_too_large";
			case 429 -> "rate_limit_error";
			case 503, 529 -> "overloaded_error";
			case 504 -> "timeout_error";
			default -> (status >= 500) ? "api_error" : "invalid_request_error";
		};
	}

}
