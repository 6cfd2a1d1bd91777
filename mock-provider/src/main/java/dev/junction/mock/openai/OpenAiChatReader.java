package dev.junction.mock.openai;

import java.util.ArrayList;
import java.util.List;

import dev.junction.mock.completion.Conversation;
import dev.junction.mock.completion.ToolChoice;
import dev.junction.mock.completion.ToolSpec;
import dev.junction.mock.pipeline.MockError;
import dev.junction.mock.pipeline.RequestFields;
import tools.jackson.databind.JsonNode;

/** Reads an OpenAI Chat Completions request. */
final class OpenAiChatReader {

	private OpenAiChatReader() {
	}

	static Conversation read(JsonNode body) {
		String model = RequestFields.requiredString(body, "model");
		JsonNode messages = RequestFields.requiredArray(body, "messages");
		boolean stream = RequestFields.flag(body, "stream");
		boolean includeUsage = stream && RequestFields.flag(body.path("stream_options"), "include_usage");
		Integer maxTokens = RequestFields.positiveInt(body, "max_completion_tokens");
		if (maxTokens == null) {
			maxTokens = RequestFields.positiveInt(body, "max_tokens");
		}
		long chars = 0;
		String lastUserText = "";
		String lastRole = null;
		for (JsonNode message : messages) {
			String role = RequestFields.optionalString(message, "role");
			if (role == null) {
				throw MockError.badRequest("Missing required parameter: 'messages[].role'.", "messages");
			}
			String text = RequestFields.text(message.path("content"));
			chars += text.length();
			for (JsonNode call : message.path("tool_calls")) {
				chars += call.path("function").path("name").asString("").length();
				chars += call.path("function").path("arguments").asString("").length();
			}
			if (role.equals("user")) {
				lastUserText = text;
			}
			lastRole = role;
		}
		boolean endsWithToolResult = "tool".equals(lastRole) || "function".equals(lastRole);
		return new Conversation(model, stream, includeUsage, maxTokens, chars, lastUserText, endsWithToolResult,
				tools(body.path("tools")), toolChoice(body.path("tool_choice")));
	}

	private static List<ToolSpec> tools(JsonNode tools) {
		List<ToolSpec> specs = new ArrayList<>();
		for (JsonNode tool : tools) {
			JsonNode function = tool.path("function");
			String name = RequestFields.optionalString(function, "name");
			if (name == null) {
				throw MockError.badRequest("Missing required parameter: 'tools[].function.name'.", "tools");
			}
			specs.add(new ToolSpec(name, function.path("parameters")));
		}
		return specs;
	}

	private static ToolChoice toolChoice(JsonNode choice) {
		if (choice.isString()) {
			return ToolChoice.ofOpenAiMode(choice.stringValue());
		}
		String name = RequestFields.optionalString(choice.path("function"), "name");
		return (name != null) ? ToolChoice.named(name) : ToolChoice.AUTO;
	}

}
