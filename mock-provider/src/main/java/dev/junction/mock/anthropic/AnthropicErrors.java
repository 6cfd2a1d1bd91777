package dev.junction.mock.anthropic;

import java.nio.charset.StandardCharsets;

import dev.junction.mock.pipeline.ErrorFormat;
import dev.junction.mock.pipeline.JsonText;
import dev.junction.mock.pipeline.MockError;

/** Anthropic's error JSON: {@code {"type":"error","error":{"type","message"}}}. */
public final class AnthropicErrors implements ErrorFormat {

	@Override
	public byte[] body(MockError error) {
		StringBuilder json = new StringBuilder(192).append("{\"type\":\"error\",\"error\":{\"type\":\"")
			.append(type(error.status()))
			.append("\",\"message\":");
		JsonText.string(json, error.getMessage()).append("}}");
		return json.toString().getBytes(StandardCharsets.UTF_8);
	}

	private static String type(int status) {
		return switch (status) {
			case 401 -> "authentication_error";
			case 402 -> "billing_error";
			case 403 -> "permission_error";
			case 404 -> "not_found_error";
			case 413 -> "request_too_large";
			case 429 -> "rate_limit_error";
			case 504 -> "timeout_error";
			case 529 -> "overloaded_error";
			default -> (status >= 500) ? "api_error" : "invalid_request_error";
		};
	}

}
