package dev.junction.gateway.provider.springai;

import dev.junction.gateway.error.InvalidRequestException;
import tools.jackson.databind.JsonNode;

import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.definition.DefaultToolDefinition;
import org.springframework.ai.tool.definition.ToolDefinition;

/**
 * A tool the client offered: its definition goes to the model, but the gateway never runs
 * it (tool execution is off), so a call to it is handed back to the client. A tool
 * without a description, as the OpenAI API allows, is described by its name.
 */
record DefinitionOnlyToolCallback(ToolDefinition definition) implements ToolCallback {

	private static final String NO_PARAMETERS = "{\"type\":\"object\",\"properties\":{}}";

	/** The definition of {@code tools[index]}, or a 400 naming what is wrong with it. */
	static DefinitionOnlyToolCallback of(JsonNode tool, int index) {
		String at = "tools[" + index + "]";
		if (!tool.isObject() || !"function".equals(tool.path("type").asString("function"))) {
			throw InvalidRequestException.invalidField(at + ".type", "Each tool must be of type 'function'.");
		}
		JsonNode function = tool.path("function");
		String name = function.path("name").asString("");
		if (name.isBlank()) {
			throw InvalidRequestException.missingField(at + ".function.name");
		}
		JsonNode description = function.path("description");
		if (!description.isMissingNode() && !description.isNull() && !description.isString()) {
			throw InvalidRequestException.invalidField(at + ".function.description",
					"A tool's 'description' must be a string.");
		}
		JsonNode parameters = function.path("parameters");
		if (!parameters.isMissingNode() && !parameters.isNull() && !parameters.isObject()) {
			throw InvalidRequestException.invalidField(at + ".function.parameters",
					"A tool's 'parameters' must be a JSON schema object.");
		}
		String text = description.asString("");
		return new DefinitionOnlyToolCallback(new DefaultToolDefinition(name, text.isBlank() ? name : text,
				parameters.isObject() ? parameters.toString() : NO_PARAMETERS));
	}

	@Override
	public ToolDefinition getToolDefinition() {
		return this.definition;
	}

	@Override
	public String call(String toolInput) {
		throw new IllegalStateException("tool '" + this.definition.name() + "' is executed by the client");
	}

}
