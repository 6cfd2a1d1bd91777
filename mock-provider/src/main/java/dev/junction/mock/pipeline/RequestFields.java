package dev.junction.mock.pipeline;

import tools.jackson.databind.JsonNode;

/**
 * Reads the request fields both providers share, answering 400 in their words when one is
 * wrong.
 */
public final class RequestFields {

	private RequestFields() {
	}

	/** A string field that must be present. */
	public static String requiredString(JsonNode body, String field) {
		JsonNode value = body.path(field);
		if (!value.isString() || value.stringValue().isEmpty()) {
			throw MockError.badRequest(field + ": Field required (a non-empty string)", field);
		}
		return value.stringValue();
	}

	/** An array field that must be present and not empty. */
	public static JsonNode requiredArray(JsonNode body, String field) {
		JsonNode value = body.path(field);
		if (!value.isArray() || value.isEmpty()) {
			throw MockError.badRequest(field + ": Field required (a non-empty array)", field);
		}
		return value;
	}

	/** A whole number field of at least 1, or null when absent. */
	public static Integer positiveInt(JsonNode body, String field) {
		JsonNode value = body.path(field);
		if (value.isMissingNode() || value.isNull()) {
			return null;
		}
		if (!value.isIntegralNumber() || !value.canConvertToInt() || value.intValue() < 1) {
			throw MockError.badRequest(field + ": must be an integer >= 1", field);
		}
		return value.intValue();
	}

	/** Whether a boolean field is present and true. */
	public static boolean flag(JsonNode node, String field) {
		JsonNode value = node.path(field);
		return value.isBoolean() && value.booleanValue();
	}

	/** A string field, or null when absent or not a string. */
	public static String optionalString(JsonNode node, String field) {
		JsonNode value = node.path(field);
		return value.isString() ? value.stringValue() : null;
	}

	/**
	 * The text of a content field: a string itself, or the {@code text} of every part of
	 * an array of parts joined with spaces; empty for anything else.
	 */
	public static String text(JsonNode content) {
		if (content.isString()) {
			return content.stringValue();
		}
		if (!content.isArray()) {
			return "";
		}
		StringBuilder text = new StringBuilder();
		for (JsonNode part : content) {
			JsonNode value = part.path("text");
			if (value.isString()) {
				if (!text.isEmpty()) {
					text.append(' ');
				}
				text.append(value.stringValue());
			}
		}
		return text.toString();
	}

}
