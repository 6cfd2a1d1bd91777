package dev.junction.mock.completion;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Deterministic arguments for a tool call, built from the tool's JSON schema: every
 * required property (all properties when none is marked required) gets the first
 * {@code enum} value, or by type {@code "mock"}, {@code 1}, {@code true}, {@code []}, or
 * a nested object built the same way.
 */
public final class ToolArguments {

	private static final JsonMapper JSON = JsonMapper.shared();

	private static final int MAX_DEPTH = 8;

	private ToolArguments() {
	}

	/**
	 * The arguments as compact JSON text; {@code {}} for a missing or property-less
	 * schema.
	 */
	public static String forSchema(JsonNode schema) {
		return JSON.writeValueAsString(object(schema, 0));
	}

	private static ObjectNode object(JsonNode schema, int depth) {
		ObjectNode arguments = JSON.createObjectNode();
		JsonNode properties = schema.path("properties");
		if (!properties.isObject() || depth > MAX_DEPTH) {
			return arguments;
		}
		Set<String> required = new HashSet<>();
		for (JsonNode name : schema.path("required")) {
			if (name.isString()) {
				required.add(name.stringValue());
			}
		}
		for (Map.Entry<String, JsonNode> property : properties.properties()) {
			if (required.isEmpty() || required.contains(property.getKey())) {
				arguments.set(property.getKey(), value(property.getValue(), depth));
			}
		}
		return arguments;
	}

	private static JsonNode value(JsonNode schema, int depth) {
		JsonNode choices = schema.path("enum");
		if (choices.isArray() && !choices.isEmpty()) {
			return choices.get(0);
		}
		JsonNode type = schema.path("type");
		if (type.isArray()) {
			type = type.path(0);
		}
		return switch (type.isString() ? type.stringValue() : "string") {
			case "integer", "number" -> JSON.getNodeFactory().numberNode(1);
			case "boolean" -> JSON.getNodeFactory().booleanNode(true);
			case "array" -> JSON.createArrayNode();
			case "object" -> object(schema, depth + 1);
			case "null" -> JSON.getNodeFactory().nullNode();
			default -> JSON.getNodeFactory().stringNode("mock");
		};
	}

}
