package dev.junction.gateway.error;

import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;

/** The client's request cannot be served as sent: retrying it unchanged will not help. */
public final class InvalidRequestException extends GatewayException {

	private final int status;

	private final String type;

	private final @Nullable String code;

	private final @Nullable String param;

	private InvalidRequestException(int status, String type, @Nullable String code, @Nullable String param,
			String message) {
		super(message, null);
		this.status = status;
		this.type = type;
		this.code = code;
		this.param = param;
	}

	public static InvalidRequestException malformedJson(String detail) {
		return new InvalidRequestException(400, "invalid_request_error", "invalid_json", null,
				"The request body is not valid JSON: " + detail);
	}

	/**
	 * The body is not JSON: the message says where, never what the client wrote there.
	 */
	public static InvalidRequestException malformedJson(JacksonException error) {
		return malformedJson(jsonSyntax(error));
	}

	/** Where a JSON syntax error is and what it is, without quoting the input. */
	public static String jsonSyntax(JacksonException error) {
		return JsonErrors.describe(error);
	}

	public static InvalidRequestException invalidField(@Nullable String param, String message) {
		return new InvalidRequestException(400, "invalid_request_error", "invalid_value", param, message);
	}

	public static InvalidRequestException missingField(String param) {
		return new InvalidRequestException(400, "invalid_request_error", "missing_required_parameter", param,
				"Missing required parameter: '" + param + "'.");
	}

	public static InvalidRequestException modelNotFound(String model) {
		return new InvalidRequestException(404, "invalid_request_error", "model_not_found", "model",
				"The model '" + model + "' does not exist: use <provider>/<model> with a configured provider, "
						+ "or a configured alias (GET /v1/models lists them).");
	}

	public static InvalidRequestException bodyTooLarge(long limitBytes) {
		return new InvalidRequestException(413, "invalid_request_error", "request_too_large", null,
				"The request body exceeds the limit of " + limitBytes + " bytes.");
	}

	public static InvalidRequestException unauthorized() {
		return new InvalidRequestException(401, "authentication_error", "invalid_api_key", null,
				"Missing or invalid gateway API key: send 'Authorization: Bearer <key>' or 'x-api-key: <key>'.");
	}

	public static InvalidRequestException forbidden(String message) {
		return new InvalidRequestException(403, "permission_error", "forbidden", null, message);
	}

	public static InvalidRequestException notFound(String message) {
		return new InvalidRequestException(404, "invalid_request_error", "not_found", null, message);
	}

	public static InvalidRequestException methodNotAllowed(String message) {
		return new InvalidRequestException(405, "invalid_request_error", "method_not_allowed", null, message);
	}

	public static InvalidRequestException unsupportedMediaType(String message) {
		return new InvalidRequestException(415, "invalid_request_error", "unsupported_media_type", null, message);
	}

	/** A parameter the target provider cannot honour. */
	public static InvalidRequestException unsupported(String param, String message) {
		return new InvalidRequestException(400, "invalid_request_error", "unsupported_parameter", param, message);
	}

	/** The request body stopped arriving before it was complete. */
	public static InvalidRequestException requestTimeout(String message) {
		return new InvalidRequestException(408, "invalid_request_error", "request_timeout", null, message);
	}

	/**
	 * A request refused before it reached the gateway's handlers: 414 (request line too
	 * long), 431 (headers too large) or 400 (not HTTP).
	 */
	public static InvalidRequestException refusedByServer(int status, String message) {
		String code = switch (status) {
			case 414 -> "uri_too_long";
			case 431 -> "request_headers_too_large";
			default -> "invalid_http_request";
		};
		return new InvalidRequestException(status, "invalid_request_error", code, null, message);
	}

	@Override
	public int status() {
		return this.status;
	}

	@Override
	public String type() {
		return this.type;
	}

	@Override
	public @Nullable String code() {
		return this.code;
	}

	@Override
	public @Nullable String param() {
		return this.param;
	}

}
