package dev.junction.mock.pipeline;

import tools.jackson.core.io.JsonStringEncoder;

/**
 * Appends JSON values to hand-built documents; the emulator writes its answers as text,
 * not through a mapper.
 */
public final class JsonText {

	private static final JsonStringEncoder ENCODER = JsonStringEncoder.getInstance();

	private JsonText() {
	}

	/** Appends a JSON string (quoted and escaped), or {@code null} for null. */
	public static StringBuilder string(StringBuilder json, String value) {
		if (value == null) {
			return json.append("null");
		}
		json.append('"');
		ENCODER.quoteAsString(value, json);
		return json.append('"');
	}

	/** A JSON string (quoted and escaped), or {@code null} for null. */
	public static String quote(String value) {
		return string(new StringBuilder(), value).toString();
	}

}
