package dev.junction.mock.responses;

import java.util.ArrayList;
import java.util.List;

import dev.junction.mock.completion.Conversation;
import dev.junction.mock.completion.ToolChoice;
import dev.junction.mock.completion.ToolSpec;
import dev.junction.mock.pipeline.MockError;
import dev.junction.mock.pipeline.RequestFields;
import tools.jackson.databind.JsonNode;

/**
 * A Responses API request: what the answer depends on, and the fields the response
 * echoes.
 *
 * @param conversation what the answer depends on
 * @param instructions the {@code instructions} as sent (JSON text), or {@code null}
 * @param tools the {@code tools} as sent (JSON text), or {@code []}
 * @param toolChoice the {@code tool_choice} as sent (JSON text), or {@code "auto"}
 */
record ResponsesRequest(Conversation conversation, String instructions, String tools, String toolChoice) {

	/**
	 * Reads a request body.
	 * @throws MockError (400) for a request the API would refuse
	 */
	static ResponsesRequest read(JsonNode body) {
		String model = RequestFields.requiredString(body, "model");
		JsonNode input = body.path("input");
		if (!(input.isString() && !input.stringValue().isEmpty()) && !(input.isArray() && !input.isEmpty())) {
			throw MockError.badRequest("input: Field required (a non-empty string or array of input items)", "input");
		}
		JsonNode instructions = body.path("instructions");
		long chars = RequestFields.text(instructions).length();
		String lastUserText = input.isString() ? input.stringValue() : "";
		boolean endsWithToolResult = false;
		int index = 0;
		for (JsonNode item : input) {
			String type = RequestFields.optionalString(item, "type");
			String role = RequestFields.optionalString(item, "role");
			if (role == null && type == null) {
				throw MockError.badRequest("input[" + index + "]: an input item needs a role or a type", "input");
			}
			if (role != null) {
				String text = RequestFields.text(item.path("content"));
				chars += text.length();
				if (role.equals("user")) {
					lastUserText = text;
				}
			}
			else if (type.equals("function_call")) {
				chars += item.path("name").asString("").length() + item.path("arguments").asString("").length();
			}
			else if (type.equals("function_call_output")) {
				JsonNode output = item.path("output");
				chars += output.isString() ? output.stringValue().length() : RequestFields.text(output).length();
			}
			endsWithToolResult = "function_call_output".equals(type);
			index++;
		}
		chars += input.isString() ? input.stringValue().length() : 0;
		Conversation conversation = new Conversation(model, RequestFields.flag(body, "stream"), false,
				RequestFields.positiveInt(body, "max_output_tokens"), chars, lastUserText, endsWithToolResult,
				tools(body.path("tools")), toolChoice(body.path("tool_choice")));
		return new ResponsesRequest(conversation, echo(instructions, "null"), echo(body.path("tools"), "[]"),
				echo(body.path("tool_choice"), "\"auto\""));
	}

	private static String echo(JsonNode value, String absent) {
		return (value.isMissingNode() || value.isNull()) ? absent : value.toString();
	}

	/**
	 * Function tools only: built-in tools (web search and the like) carry another type
	 * and are not called.
	 */
	private static List<ToolSpec> tools(JsonNode tools) {
		List<ToolSpec> specs = new ArrayList<>();
		int index = 0;
		for (JsonNode tool : tools) {
			if ("function".equals(RequestFields.optionalString(tool, "type"))) {
				String name = RequestFields.optionalString(tool, "name");
				if (name == null) {
					throw MockError.badRequest("Missing required parameter: 'tools[" + index + "].name'.", "tools");
				}
				specs.add(new ToolSpec(name, tool.path("parameters")));
			}
			index++;
		}
		return specs;
	}

	private static ToolChoice toolChoice(JsonNode choice) {
		if (choice.isString()) {
			return ToolChoice.ofOpenAiMode(choice.stringValue());
		}
		String name = "function".equals(RequestFields.optionalString(choice, "type"))
				? RequestFields.optionalString(choice, "name") : null;
		return (name != null) ? ToolChoice.named(name) : ToolChoice.AUTO;
	}

}
