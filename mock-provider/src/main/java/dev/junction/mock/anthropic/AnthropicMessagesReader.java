package dev.junction.mock.anthropic;

import java.util.ArrayList;
import java.util.List;

import dev.junction.mock.completion.Conversation;
import dev.junction.mock.completion.ToolChoice;
import dev.junction.mock.completion.ToolSpec;
import dev.junction.mock.pipeline.MockError;
import dev.junction.mock.pipeline.RequestFields;
import tools.jackson.databind.JsonNode;

/**
 * Reads an Anthropic Messages request; like the real API it requires {@code max_tokens}
 * to create a message.
 */
final class AnthropicMessagesReader {

	private AnthropicMessagesReader() {
	}

	static Conversation read(JsonNode body) {
		Conversation conversation = readWithoutMaxTokens(body);
		if (conversation.maxTokens() == null) {
			throw MockError.badRequest("max_tokens: Field required", "max_tokens");
		}
		return conversation;
	}

	/**
	 * Reads a request that need not say {@code max_tokens}, as {@code count_tokens} takes
	 * them.
	 */
	static Conversation readWithoutMaxTokens(JsonNode body) {
		String model = RequestFields.requiredString(body, "model");
		Integer maxTokens = RequestFields.positiveInt(body, "max_tokens");
		JsonNode messages = RequestFields.requiredArray(body, "messages");
		long chars = RequestFields.text(body.path("system")).length();
		String lastUserText = "";
		boolean endsWithToolResult = false;
		for (JsonNode message : messages) {
			String role = RequestFields.optionalString(message, "role");
			if (role == null) {
				throw MockError.badRequest("messages.role: Field required", "messages");
			}
			JsonNode content = message.path("content");
			String text = RequestFields.text(content);
			chars += text.length();
			boolean toolResult = false;
			for (JsonNode block : content) {
				String type = RequestFields.optionalString(block, "type");
				if ("tool_result".equals(type)) {
					toolResult = true;
					chars += RequestFields.text(block.path("content")).length();
				}
				else if ("tool_use".equals(type)) {
					chars += block.path("name").asString("").length() + block.path("input").toString().length();
				}
			}
			if (role.equals("user") && !text.isEmpty()) {
				lastUserText = text;
			}
			endsWithToolResult = role.equals("user") && toolResult;
		}
		return new Conversation(model, RequestFields.flag(body, "stream"), false, maxTokens, chars, lastUserText,
				endsWithToolResult, tools(body.path("tools")), toolChoice(body.path("tool_choice")));
	}

	/**
	 * Client tools only: server tools (web search and the like) carry a type and no input
	 * schema.
	 */
	private static List<ToolSpec> tools(JsonNode tools) {
		List<ToolSpec> specs = new ArrayList<>();
		for (JsonNode tool : tools) {
			String type = RequestFields.optionalString(tool, "type");
			if (type != null && !type.equals("custom")) {
				continue;
			}
			String name = RequestFields.optionalString(tool, "name");
			if (name == null) {
				throw MockError.badRequest("tools.name: Field required", "tools");
			}
			specs.add(new ToolSpec(name, tool.path("input_schema")));
		}
		return specs;
	}

	private static ToolChoice toolChoice(JsonNode choice) {
		String type = RequestFields.optionalString(choice, "type");
		if (type == null) {
			return ToolChoice.AUTO;
		}
		return switch (type) {
			case "none" -> ToolChoice.NONE;
			case "any" -> ToolChoice.REQUIRED;
			case "tool" -> ToolChoice.named(RequestFields.optionalString(choice, "name"));
			default -> ToolChoice.AUTO;
		};
	}

}
