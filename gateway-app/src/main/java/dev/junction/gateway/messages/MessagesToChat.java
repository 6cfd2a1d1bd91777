package dev.junction.gateway.messages;

import dev.junction.gateway.error.InvalidRequestException;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * An Anthropic Messages request as the OpenAI chat completion that stands for it: system
 * prompt, text, images and PDF documents, tool definitions, tool calls and tool results,
 * {@code tool_choice}, sampling parameters, stop sequences and the stream flag. Thinking
 * blocks of earlier turns and {@code thinking}, {@code cache_control} and
 * {@code service_tier} are hints a chat completion has no place for and are left out;
 * what would change the answer and cannot be said ({@code top_k}, server tools, MCP
 * servers, containers) is refused with a 400 naming it.
 */
final class MessagesToChat {

	private final ObjectMapper mapper;

	MessagesToChat(ObjectMapper mapper) {
		this.mapper = mapper;
	}

	/**
	 * Checks what every Messages request needs: a model, messages and, unless counting
	 * tokens, max_tokens.
	 */
	static void validate(JsonNode body, boolean needsMaxTokens) {
		JsonNode model = body.get("model");
		if (model == null || model.isNull()) {
			throw InvalidRequestException.missingField("model");
		}
		requireNonEmptyString(model, "model");
		JsonNode maxTokens = body.get("max_tokens");
		if (needsMaxTokens && (maxTokens == null || maxTokens.isNull())) {
			throw InvalidRequestException.missingField("max_tokens");
		}
		if (maxTokens != null && !maxTokens.isNull()
				&& (!maxTokens.isIntegralNumber() || !maxTokens.canConvertToInt() || maxTokens.asInt() < 1)) {
			throw InvalidRequestException.invalidField("max_tokens", "max_tokens: Input should be a positive integer.");
		}
		JsonNode messages = body.get("messages");
		if (messages == null || messages.isNull()) {
			throw InvalidRequestException.missingField("messages");
		}
		if (!messages.isArray() || messages.isEmpty()) {
			throw InvalidRequestException.invalidField("messages", "messages: Input should be a non-empty list.");
		}
		for (int i = 0; i < messages.size(); i++) {
			JsonNode message = messages.get(i);
			String role = message.path("role").asString("");
			if (!message.isObject() || (!role.equals("user") && !role.equals("assistant"))) {
				throw InvalidRequestException.invalidField("messages." + i + ".role",
						"messages." + i + ".role: Input should be 'user' or 'assistant'.");
			}
			JsonNode content = message.get("content");
			if (content == null || !(content.isString() || content.isArray())) {
				throw InvalidRequestException.invalidField("messages." + i + ".content",
						"messages." + i + ".content: Input should be a string or a list of content blocks.");
			}
		}
		JsonNode stream = body.get("stream");
		if (stream != null && !stream.isNull() && !stream.isBoolean()) {
			throw InvalidRequestException.invalidField("stream", "stream: Input should be a valid boolean.");
		}
		validateTools(body);
	}

	/**
	 * Tools as a list of objects, each named; a tool choice as an object naming its type.
	 */
	private static void validateTools(JsonNode body) {
		JsonNode tools = body.get("tools");
		if (tools != null && !tools.isNull()) {
			if (!tools.isArray()) {
				throw InvalidRequestException.invalidField("tools", "tools: Input should be a valid list.");
			}
			for (int i = 0; i < tools.size(); i++) {
				JsonNode tool = tools.get(i);
				String where = "tools." + i;
				if (!tool.isObject()) {
					throw InvalidRequestException.invalidField(where, where + ": Input should be a valid dictionary.");
				}
				requireNonEmptyString(tool.get("name"), where + ".name");
				JsonNode schema = tool.get("input_schema");
				if (schema != null && !schema.isNull() && !schema.isObject()) {
					throw InvalidRequestException.invalidField(where + ".input_schema",
							where + ".input_schema: Input should be a valid dictionary.");
				}
				JsonNode description = tool.get("description");
				if (description != null && !description.isNull() && !description.isString()) {
					throw InvalidRequestException.invalidField(where + ".description",
							where + ".description: Input should be a valid string.");
				}
			}
		}
		JsonNode choice = body.get("tool_choice");
		if (choice != null && !choice.isNull() && (!choice.isObject() || !choice.path("type").isString())) {
			throw InvalidRequestException.invalidField("tool_choice",
					"tool_choice: Input should be an object with a 'type'.");
		}
	}

	private static void requireNonEmptyString(@Nullable JsonNode value, String field) {
		if (value == null || !value.isString() || value.stringValue().isBlank()) {
			throw InvalidRequestException.invalidField(field, field + ": Input should be a non-empty string.");
		}
	}

	/** The chat completion request for a validated Messages request. */
	ObjectNode translate(ObjectNode body) {
		refuse(body, "top_k", "a sampling parameter chat completions do not have");
		refuse(body, "mcp_servers", "MCP servers are run by Anthropic's API");
		refuse(body, "container", "containers are run by Anthropic's API");
		ObjectNode chat = this.mapper.createObjectNode();
		chat.put("model", body.path("model").asString());
		ArrayNode messages = chat.putArray("messages");
		JsonNode system = body.get("system");
		if (system != null && !system.isNull()) {
			messages.addObject().put("role", "system").put("content", text(system, "system"));
		}
		JsonNode turns = body.path("messages");
		for (int i = 0; i < turns.size(); i++) {
			JsonNode turn = turns.get(i);
			if (turn.path("role").asString().equals("user")) {
				user(turn.get("content"), messages, "messages." + i + ".content");
			}
			else {
				assistant(turn.get("content"), messages, "messages." + i + ".content");
			}
		}
		chat.put("max_tokens", body.path("max_tokens").asInt());
		copy(body, "temperature", chat, "temperature");
		copy(body, "top_p", chat, "top_p");
		JsonNode stop = body.get("stop_sequences");
		if (stop != null && stop.isArray() && !stop.isEmpty()) {
			chat.set("stop", stop);
		}
		String user = body.path("metadata").path("user_id").asString(null);
		if (user != null) {
			chat.put("user", user);
		}
		tools(body, chat);
		if (body.path("stream").asBoolean(false)) {
			chat.put("stream", true);
			chat.putObject("stream_options").put("include_usage", true);
		}
		return chat;
	}

	private static void refuse(JsonNode body, String field, String why) {
		JsonNode value = body.get(field);
		if (value != null && !value.isNull() && !(value.isContainer() && value.isEmpty())) {
			throw InvalidRequestException.unsupported(field,
					field + ": not supported for this model (" + why + "); remove it or use an Anthropic model.");
		}
	}

	private static void copy(JsonNode from, String field, ObjectNode to, String as) {
		JsonNode value = from.get(field);
		if (value != null && !value.isNull()) {
			to.set(as, value);
		}
	}

	private void user(JsonNode content, ArrayNode messages, String path) {
		if (content.isString()) {
			messages.addObject().put("role", "user").put("content", content.stringValue());
			return;
		}
		ArrayNode parts = this.mapper.createArrayNode();
		for (int j = 0; j < content.size(); j++) {
			JsonNode block = content.get(j);
			String where = path + "." + j;
			switch (type(block, where)) {
				case "text" -> parts.addObject().put("type", "text").put("text", block.path("text").asString(""));
				case "image" -> parts.add(image(block, where));
				case "document" -> parts.add(document(block, where));
				case "tool_result" -> {
					ObjectNode tool = messages.addObject().put("role", "tool");
					tool.put("tool_call_id", block.path("tool_use_id").asString(""));
					JsonNode result = block.get("content");
					if (result != null && result.isArray()) {
						for (int k = 0; k < result.size(); k++) {
							if ("image".equals(result.get(k).path("type").asString(null))) {
								parts.add(image(result.get(k), where + ".content." + k));
							}
						}
					}
					tool.put("content", (result == null || result.isNull()) ? "" : text(result, where + ".content"));
				}
				default -> throw unsupportedBlock(block, where);
			}
		}
		if (!parts.isEmpty()) {
			messages.addObject().put("role", "user").set("content", parts);
		}
	}

	private void assistant(JsonNode content, ArrayNode messages, String path) {
		ObjectNode message = messages.addObject().put("role", "assistant");
		if (content.isString()) {
			message.put("content", content.stringValue());
			return;
		}
		StringBuilder text = new StringBuilder();
		ArrayNode calls = null;
		for (int j = 0; j < content.size(); j++) {
			JsonNode block = content.get(j);
			String where = path + "." + j;
			switch (type(block, where)) {
				case "text" -> text.append(block.path("text").asString(""));
				case "tool_use" -> {
					if (calls == null) {
						calls = message.putArray("tool_calls");
					}
					ObjectNode call = calls.addObject();
					call.put("id", block.path("id").asString(""));
					call.put("type", "function");
					JsonNode input = block.get("input");
					call.putObject("function")
						.put("name", block.path("name").asString(""))
						.put("arguments", (input == null || input.isNull()) ? "{}" : input.toString());
				}
				case "thinking", "redacted_thinking" -> {
					// The model's earlier reasoning: no chat completion field takes it.
				}
				default -> throw unsupportedBlock(block, where);
			}
		}
		if (text.length() > 0 || calls == null) {
			message.put("content", text.toString());
		}
		else {
			message.putNull("content");
		}
	}

	private ObjectNode image(JsonNode block, String where) {
		JsonNode source = block.path("source");
		String url = switch (source.path("type").asString("")) {
			case "base64" -> "data:" + source.path("media_type").asString("image/png") + ";base64,"
					+ source.path("data").asString("");
			case "url" -> source.path("url").asString("");
			default -> throw InvalidRequestException.unsupported(where + ".source",
					where + ".source: only base64 and url image sources can be sent to this model.");
		};
		ObjectNode part = this.mapper.createObjectNode().put("type", "image_url");
		part.putObject("image_url").put("url", url);
		return part;
	}

	private ObjectNode document(JsonNode block, String where) {
		JsonNode source = block.path("source");
		String type = source.path("type").asString("");
		if (type.equals("text")) {
			return this.mapper.createObjectNode().put("type", "text").put("text", source.path("data").asString(""));
		}
		if (!type.equals("base64") || !"application/pdf".equals(source.path("media_type").asString(null))) {
			throw InvalidRequestException.unsupported(where + ".source",
					where + ".source: only base64 PDF and plain text documents can be sent to this model.");
		}
		ObjectNode part = this.mapper.createObjectNode().put("type", "file");
		part.putObject("file")
			.put("filename", block.path("title").asString("document.pdf"))
			.put("file_data", "data:application/pdf;base64," + source.path("data").asString(""));
		return part;
	}

	/**
	 * The text of a string or of a list of text blocks (images and other blocks are not
	 * text).
	 */
	private static String text(JsonNode content, String where) {
		if (content.isString()) {
			return content.stringValue();
		}
		if (!content.isArray()) {
			throw InvalidRequestException.invalidField(where,
					where + ": Input should be a string or a list of blocks.");
		}
		StringBuilder text = new StringBuilder();
		for (JsonNode block : content) {
			if ("text".equals(block.path("type").asString(null))) {
				if (text.length() > 0) {
					text.append('\n');
				}
				text.append(block.path("text").asString(""));
			}
		}
		return text.toString();
	}

	private void tools(JsonNode body, ObjectNode chat) {
		JsonNode tools = body.get("tools");
		if (tools == null || tools.isNull() || tools.isEmpty()) {
			return;
		}
		ArrayNode functions = chat.putArray("tools");
		for (int i = 0; i < tools.size(); i++) {
			JsonNode tool = tools.get(i);
			String type = tool.path("type").asString("custom");
			if (!type.equals("custom")) {
				throw InvalidRequestException.unsupported("tools." + i + ".type", "tools." + i + ".type: '" + type
						+ "' is a server tool of Anthropic's API; only custom tools can be sent to this model.");
			}
			ObjectNode function = functions.addObject().put("type", "function").putObject("function");
			function.put("name", tool.path("name").asString());
			if (tool.hasNonNull("description")) {
				function.put("description", tool.path("description").asString(""));
			}
			function.set("parameters", tool.hasNonNull("input_schema") ? tool.get("input_schema")
					: this.mapper.createObjectNode().put("type", "object"));
		}
		JsonNode choice = body.get("tool_choice");
		if (choice == null || choice.isNull()) {
			return;
		}
		switch (choice.path("type").asString("")) {
			case "auto" -> chat.put("tool_choice", "auto");
			case "any" -> chat.put("tool_choice", "required");
			case "none" -> chat.put("tool_choice", "none");
			case "tool" -> {
				JsonNode name = choice.get("name");
				requireNonEmptyString(name, "tool_choice.name");
				chat.putObject("tool_choice")
					.put("type", "function")
					.putObject("function")
					.put("name", name.stringValue());
			}
			default -> throw InvalidRequestException.invalidField("tool_choice",
					"tool_choice.type: Input should be 'auto', 'any', 'tool' or 'none'.");
		}
		if (choice.path("disable_parallel_tool_use").asBoolean(false)) {
			chat.put("parallel_tool_calls", false);
		}
	}

	private static String type(JsonNode block, String where) {
		String type = block.path("type").asString(null);
		if (!block.isObject() || type == null) {
			throw InvalidRequestException.invalidField(where, where + ": each content block needs a 'type'.");
		}
		return type;
	}

	private static InvalidRequestException unsupportedBlock(JsonNode block, String where) {
		return InvalidRequestException.unsupported(where + ".type", where + ".type: content blocks of type '"
				+ block.path("type").asString() + "' cannot be sent to this model.");
	}

}
