package dev.junction.gateway.rpc;

import java.time.Duration;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * A failed call, independent of the protocol that reports it: a JSON-RPC error code, the HTTP
 * status it corresponds to (which also selects the tRPC error code), a message and details.
 *
 * @param code the JSON-RPC error code
 * @param httpStatus the HTTP status of this failure alone
 * @param message a short description for the client
 * @param data details, or null
 * @param retryAfter when to retry, if known
 */
public record RpcError(int code, int httpStatus, String message, @Nullable JsonNode data,
		@Nullable Duration retryAfter) {

	public static final int PARSE_ERROR = -32700;

	public static final int INVALID_REQUEST = -32600;

	public static final int METHOD_NOT_FOUND = -32601;

	public static final int INVALID_PARAMS = -32602;

	public static final int INTERNAL_ERROR = -32603;

	/** Implementation-defined server error: a dependency failed or a limiter refused. */
	public static final int SERVER_ERROR = -32000;

	public static final int UNAUTHORIZED = -32001;

	public static final int FORBIDDEN = -32003;

	public static final int TOO_MANY_REQUESTS = -32029;

	public static RpcError parseError(String detail) {
		return new RpcError(PARSE_ERROR, 400, "Parse error: " + detail, null, null);
	}

	public static RpcError invalidRequest(String detail) {
		return new RpcError(INVALID_REQUEST, 400, "Invalid Request: " + detail, null, null);
	}

	public static RpcError methodNotFound(String method) {
		return new RpcError(METHOD_NOT_FOUND, 404, "Method not found: " + method, null, null);
	}

	public static RpcError invalidParams(String detail, @Nullable JsonNode data) {
		return new RpcError(INVALID_PARAMS, 400, "Invalid params: " + detail, data, null);
	}

	public static RpcError internal() {
		return new RpcError(INTERNAL_ERROR, 500, "Internal error", null, null);
	}

	public static RpcError unauthorized(String message) {
		return new RpcError(UNAUTHORIZED, 401, message, null, null);
	}

	public static RpcError forbidden(String message) {
		return new RpcError(FORBIDDEN, 403, message, null, null);
	}

	public RpcError withHttpStatus(int status) {
		return new RpcError(this.code, status, this.message, this.data, this.retryAfter);
	}

}
