package dev.junction.gateway.support;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** JSON parsing for assertions. */
public final class Json {

	private static final JsonMapper MAPPER = JsonMapper.builder().build();

	private Json() {
	}

	public static JsonNode parse(String json) {
		return MAPPER.readTree(json);
	}

}
