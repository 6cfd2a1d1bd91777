package dev.junction.gateway.responses;

import dev.junction.gateway.error.InvalidRequestException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * An OpenAI Responses request as the chat completion that stands for it:
 * {@code instructions} and system or developer items as system messages, input text and
 * images, function calls and their outputs, function tools, {@code tool_choice},
 * {@code text.format} as {@code response_format}, {@code reasoning.effort}, sampling
 * parameters and the stream flag. What needs state or tools the gateway does not have
 * ({@code previous_response_id}, {@code conversation}, built-in tools, file inputs by id)
 * has no chat form: a 400 naming it, unless the request reaches a provider that speaks
 * Responses.
 */
final class ResponsesToChat {

	private final ObjectMapper mapper;

	ResponsesToChat(ObjectMapper mapper) {
		this.mapper = mapper;
	}

	/** Checks what routing reads, whatever provider the request goes to. */
	static void validate(ObjectNode body) {
		JsonNode model = body.get("model");
		if (model == null || model.isNull()) {
			throw InvalidRequestException.missingField("model");
		}
		if (!model.isString() || model.stringValue().isBlank()) {
			throw InvalidRequestException.invalidField("model", "'model' must be a non-empty string.");
		}
		JsonNode stream = body.get("stream");
		if (stream != null && !stream.isNull() && !stream.isBoolean()) {
			throw InvalidRequestException.invalidField("stream", "'stream' must be a boolean.");
		}
	}

	/**
	 * The chat completion request for a Responses request, once {@link #validate
	 * validated}.
	 */
	ObjectNode translate(ObjectNode body) {
		JsonNode model = body.get("model");
		for (String field : new String[] { "previous_response_id", "conversation", "prompt", "background" }) {
			JsonNode value = body.get(field);
			if (value != null && !value.isNull() && !(value.isBoolean() && !value.booleanValue())) {
				throw InvalidRequestException.unsupported(field,
						"'" + field + "' needs responses stored by the server, which the gateway does not keep: "
								+ "send the whole conversation in 'input'.");
			}
		}
		ObjectNode chat = this.mapper.createObjectNode();
		chat.put("model", model.stringValue());
		ArrayNode messages = chat.putArray("messages");
		String instructions = body.path("instructions").asString(null);
		if (instructions != null) {
			messages.addObject().put("role", "system").put("content", instructions);
		}
		input(body.get("input"), messages);
		if (messages.isEmpty()) {
			throw InvalidRequestException.missingField("input");
		}
		JsonNode maxTokens = body.get("max_output_tokens");
		if (maxTokens != null && !maxTokens.isNull()) {
			chat.set("max_tokens", maxTokens);
		}
		for (String field : new String[] { "temperature", "top_p", "parallel_tool_calls", "top_logprobs" }) {
			JsonNode value = body.get(field);
			if (value != null && !value.isNull()) {
				chat.set(field, value);
			}
		}
		String user = body.path("safety_identifier").asString(body.path("user").asString(null));
		if (user != null) {
			chat.put("user", user);
		}
		String effort = body.path("reasoning").path("effort").asString(null);
		if (effort != null) {
			chat.put("reasoning_effort", effort);
		}
		format(body.path("text").get("format"), chat);
		tools(body, chat);
		JsonNode stream = body.get("stream");
		if (stream != null && stream.asBoolean(false)) {
			chat.put("stream", true);
			chat.putObject("stream_options").put("include_usage", true);
		}
		return chat;
	}

	private void input(JsonNode input, ArrayNode messages) {
		if (input == null || input.isNull()) {
			return;
		}
		if (input.isString()) {
			messages.addObject().put("role", "user").put("content", input.stringValue());
			return;
		}
		if (!input.isArray()) {
			throw InvalidRequestException.invalidField("input", "'input' must be a string or a list of items.");
		}
		ObjectNode calls = null;
		for (int i = 0; i < input.size(); i++) {
			JsonNode item = input.get(i);
			String where = "input[" + i + "]";
			String type = item.path("type").asString(item.has("role") ? "message" : "");
			switch (type) {
				case "message" -> {
					calls = null;
					message(item, messages, where);
				}
				case "function_call" -> {
					if (calls == null) {
						calls = messages.addObject().put("role", "assistant");
						calls.putNull("content");
						calls.putArray("tool_calls");
					}
					ObjectNode call = ((ArrayNode) calls.get("tool_calls")).addObject();
					call.put("id", item.path("call_id").asString(""));
					call.put("type", "function");
					call.putObject("function")
						.put("name", item.path("name").asString(""))
						.put("arguments", item.path("arguments").asString("{}"));
				}
				case "function_call_output" -> {
					JsonNode output = item.path("output");
					messages.addObject()
						.put("role", "tool")
						.put("tool_call_id", item.path("call_id").asString(""))
						.put("content", output.isString() ? output.stringValue() : text(output));
				}
				case "reasoning" -> {
					// Earlier reasoning: no chat completion field takes it.
				}
				default -> throw InvalidRequestException.unsupported(where + ".type",
						"Input items of type '" + type + "' cannot be sent to this model.");
			}
		}
	}

	private void message(JsonNode item, ArrayNode messages, String where) {
		String role = item.path("role").asString("");
		if (!role.equals("user") && !role.equals("assistant") && !role.equals("system") && !role.equals("developer")) {
			throw InvalidRequestException.invalidField(where + ".role",
					"'role' must be user, assistant, system or developer.");
		}
		ObjectNode message = messages.addObject().put("role", role.equals("developer") ? "system" : role);
		JsonNode content = item.get("content");
		if (content == null || content.isString()) {
			message.put("content", (content != null) ? content.stringValue() : "");
			return;
		}
		if (!content.isArray()) {
			throw InvalidRequestException.invalidField(where + ".content",
					"'" + where + ".content' must be a string or an array of content parts.");
		}
		if (!role.equals("user")) {
			message.put("content", text(content));
			return;
		}
		ArrayNode parts = message.putArray("content");
		for (int j = 0; j < content.size(); j++) {
			JsonNode part = content.get(j);
			switch (part.path("type").asString("")) {
				case "input_text", "output_text" ->
					parts.addObject().put("type", "text").put("text", part.path("text").asString(""));
				case "input_image" -> {
					String url = part.path("image_url").asString(null);
					if (url == null) {
						throw InvalidRequestException.unsupported(where + ".content[" + j + "]",
								"Images by file id cannot be sent through the gateway: use 'image_url'.");
					}
					ObjectNode image = parts.addObject()
						.put("type", "image_url")
						.putObject("image_url")
						.put("url", url);
					JsonNode detail = part.get("detail");
					if (detail != null && !detail.isNull()) {
						if (!detail.isString()) {
							throw InvalidRequestException.invalidField(where + ".content[" + j + "].detail",
									"'detail' must be 'low', 'high' or 'auto'.");
						}
						image.put("detail", detail.stringValue());
					}
				}
				case "input_file" -> {
					String data = part.path("file_data").asString(null);
					if (data == null) {
						throw InvalidRequestException.unsupported(where + ".content[" + j + "]",
								"Files by id or URL cannot be sent through the gateway: use 'file_data'.");
					}
					parts.addObject()
						.put("type", "file")
						.putObject("file")
						.put("filename", part.path("filename").asString("file"))
						.put("file_data", data);
				}
				default -> throw InvalidRequestException.unsupported(where + ".content[" + j + "].type", "Content "
						+ (part.path("type").isMissingNode() ? "without a type" : "of type " + part.path("type"))
						+ " cannot be sent to this model.");
			}
		}
	}

	private static String text(JsonNode content) {
		StringBuilder text = new StringBuilder();
		for (JsonNode part : content) {
			text.append(part.path("text").asString(""));
		}
		return text.toString();
	}

	private void format(JsonNode format, ObjectNode chat) {
		if (format == null || format.isNull()) {
			return;
		}
		String type = format.path("type").asString("");
		switch (type) {
			case "text" -> {
			}
			case "json_object" -> chat.putObject("response_format").put("type", "json_object");
			case "json_schema" -> {
				ObjectNode schema = chat.putObject("response_format")
					.put("type", "json_schema")
					.putObject("json_schema");
				schema.put("name", format.path("name").asString("response"));
				schema.set("schema", format.path("schema"));
				if (format.has("strict")) {
					schema.set("strict", format.get("strict"));
				}
				if (format.has("description")) {
					schema.set("description", format.get("description"));
				}
			}
			default -> throw InvalidRequestException.invalidField("text.format",
					"'text.format.type' must be text, json_object or json_schema.");
		}
	}

	private void tools(JsonNode body, ObjectNode chat) {
		JsonNode tools = body.get("tools");
		if (tools != null && tools.isArray() && !tools.isEmpty()) {
			ArrayNode functions = chat.putArray("tools");
			for (int i = 0; i < tools.size(); i++) {
				JsonNode tool = tools.get(i);
				String type = tool.path("type").asString("");
				if (!type.equals("function")) {
					throw InvalidRequestException.unsupported("tools[" + i + "].type", "Tools of type '" + type
							+ "' are run by OpenAI's servers; only function tools can be sent through the gateway.");
				}
				ObjectNode function = functions.addObject().put("type", "function").putObject("function");
				function.put("name", tool.path("name").asString(""));
				if (tool.hasNonNull("description")) {
					function.set("description", tool.get("description"));
				}
				function.set("parameters", tool.hasNonNull("parameters") ? tool.get("parameters")
						: this.mapper.createObjectNode().put("type", "object"));
				if (tool.hasNonNull("strict")) {
					function.set("strict", tool.get("strict"));
				}
			}
		}
		JsonNode choice = body.get("tool_choice");
		if (choice == null || choice.isNull()) {
			return;
		}
		if (choice.isString()) {
			chat.put("tool_choice", choice.stringValue());
		}
		else if ("function".equals(choice.path("type").asString(null))) {
			chat.putObject("tool_choice")
				.put("type", "function")
				.putObject("function")
				.put("name", choice.path("name").asString(""));
		}
		else {
			throw InvalidRequestException.unsupported("tool_choice",
					"'tool_choice' must be none, auto, required or a function.");
		}
	}

}
