package dev.junction.gateway.rpc;

import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/** Small JSON Schema builders for the procedures' result descriptions. */
final class Schemas {

	private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

	private Schemas() {
	}

	static ObjectNode type(String type) {
		return JSON.objectNode().put("type", type);
	}

	/** The schema of a parameter: its type, bounds, allowed values and members. */
	static ObjectNode of(Param param) {
		ObjectNode schema = type(param.type());
		if (param.minimum() != null) {
			schema.put("minimum", param.minimum());
		}
		if (param.maximum() != null) {
			schema.put("maximum", param.maximum());
		}
		if (!param.values().isEmpty()) {
			param.values().forEach(schema.putArray("enum")::add);
		}
		if (!param.properties().isEmpty()) {
			ObjectNode properties = schema.putObject("properties");
			param.properties().forEach((member) -> properties.set(member.name(), of(member)));
		}
		return schema;
	}

	/** An object schema with the given properties, each {@code name, type} in turn. */
	static ObjectNode object(String... namesAndTypes) {
		ObjectNode schema = type("object");
		ObjectNode properties = schema.putObject("properties");
		for (int i = 0; i < namesAndTypes.length; i += 2) {
			properties.set(namesAndTypes[i], type(namesAndTypes[i + 1]));
		}
		return schema;
	}

}
