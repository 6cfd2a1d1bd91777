package dev.junction.mock.openai;

import java.nio.charset.StandardCharsets;

import dev.junction.mock.pipeline.ErrorFormat;
import dev.junction.mock.pipeline.JsonText;
import dev.junction.mock.pipeline.MockError;

/** OpenAI's error JSON: {@code {"error":{"message","type","param","code"}}}. */
public final class OpenAiErrors implements ErrorFormat {

	@Override
	public byte[] body(MockError error) {
		StringBuilder json = new StringBuilder(256).append("{\"error\":{\"message\":");
		JsonText.string(json, error.getMessage()).append(",\"type\":");
		JsonText.string(json, type(error.status())).append(",\"param\":");
		JsonText.string(json, error.param()).append(",\"code\":");
		JsonText.string(json, error.code()).append("}}");
		return json.toString().getBytes(StandardCharsets.UTF_8);
	}

	private static String type(int status) {
		if (status == 429) {
			return "requests";
		}
		if (status == 403) {
			return "permission_error";
		}
		return (status >= 500) ? "server_error" : "invalid_request_error";
	}

}
