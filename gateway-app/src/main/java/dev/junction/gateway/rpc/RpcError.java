package dev.junction.gateway.rpc;

import java.time.Duration;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * A failed call, independent of the protocol that reports it: a JSON-RPC error code, the
 * HTTP status it corresponds to (which also selects the tRPC error code), a message and
 * details. tRPC reports the message as it is; JSON-RPC reports the standard title of a
 * standard code ("Invalid params") and this message in its {@code data}, as JSON-RPC
 * clients expect.
 *
 * @param code the JSON-RPC error code
 * @param httpStatus the HTTP status of this failure alone
 * @param message what went wrong, in the caller's terms
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

	public static final int FORBIDDEN = -32002;

	public static final int TOO_MANY_REQUESTS = -32029;

	public static RpcError parseError(String detail) {
		return new RpcError(PARSE_ERROR, 400, detail, null, null);
	}

	public static RpcError invalidRequest(String detail) {
		return new RpcError(INVALID_REQUEST, 400, detail, null, null);
	}

	public static RpcError methodNotFound(String method) {
		return new RpcError(METHOD_NOT_FOUND, 404, "Method not found: " + method, null, null);
	}

	public static RpcError invalidParams(String detail, @Nullable JsonNode data) {
		return new RpcError(INVALID_PARAMS, 400, detail, data, null);
	}

	public static RpcError internal() {
		return new RpcError(INTERNAL_ERROR, 500, "The gateway failed to process the call.", null, null);
	}

	public static RpcError unauthorized(String message) {
		return new RpcError(UNAUTHORIZED, 401, message, null, null);
	}

	public static RpcError forbidden(String message) {
		return new RpcError(FORBIDDEN, 403, message, null, null);
	}

	/**
	 * The standard JSON-RPC title of this error's code, or null for codes that have none.
	 */
	public @Nullable String title() {
		return switch (this.code) {
			case PARSE_ERROR -> "Parse error";
			case INVALID_REQUEST -> "Invalid Request";
			case INVALID_PARAMS -> "Invalid params";
			case INTERNAL_ERROR -> "Internal error";
			case UNAUTHORIZED -> "Unauthorized";
			case FORBIDDEN -> "Forbidden";
			default -> null;
		};
	}

	public RpcError withHttpStatus(int status) {
		return new RpcError(this.code, status, this.message, this.data, this.retryAfter);
	}

}
