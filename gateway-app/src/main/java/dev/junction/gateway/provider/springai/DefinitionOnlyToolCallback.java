package dev.junction.gateway.provider.springai;

import tools.jackson.databind.JsonNode;

import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.definition.DefaultToolDefinition;
import org.springframework.ai.tool.definition.ToolDefinition;

/**
 * A tool the client offered: its definition goes to the model, but the gateway never runs
 * it (tool execution is off), so a call to it is handed back to the client.
 */
record DefinitionOnlyToolCallback(ToolDefinition definition) implements ToolCallback {

	static DefinitionOnlyToolCallback of(JsonNode tool) {
		JsonNode function = tool.path("function");
		JsonNode parameters = function.path("parameters");
		String schema = parameters.isObject() ? parameters.toString() : "{\"type\":\"object\",\"properties\":{}}";
		return new DefinitionOnlyToolCallback(new DefaultToolDefinition(function.path("name").asString("tool"),
				function.path("description").asString(""), schema));
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
