package dev.junction.gateway.provider;

import java.util.HashSet;
import java.util.Set;

import dev.junction.gateway.error.InvalidRequestException;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

/**
 * OpenAI request parameters that an adapter for another kind of provider must honour or
 * refuse with a 400 naming the parameter, never drop silently: {@code n},
 * {@code logprobs}, {@code response_format} and {@code tool_choice}.
 */
public final class ChatParameters {

	private ChatParameters() {
	}

	/** Refuses {@code n} other than 1: the provider returns one choice. */
	public static void requireSingleChoice(JsonNode body, String provider) {
		JsonNode n = body.get("n");
		if (n == null || n.isNull()) {
			return;
		}
		if (!n.isIntegralNumber() || !n.canConvertToInt() || n.asInt() < 1) {
			throw InvalidRequestException.invalidField("n", "'n' must be a positive integer.");
		}
		if (n.asInt() != 1) {
			throw InvalidRequestException.unsupported("n",
					"Provider '" + provider + "' returns one choice per request: 'n' must be 1.");
		}
	}

	/**
	 * Refuses {@code logprobs} and {@code top_logprobs}: the provider does not report
	 * them.
	 */
	public static void requireNoLogprobs(JsonNode body, String provider) {
		JsonNode logprobs = body.get("logprobs");
		if (logprobs != null && !logprobs.isNull()) {
			if (!logprobs.isBoolean()) {
				throw InvalidRequestException.invalidField("logprobs", "'logprobs' must be a boolean.");
			}
			if (logprobs.booleanValue()) {
				throw InvalidRequestException.unsupported("logprobs",
						"Provider '" + provider + "' does not report log probabilities: remove 'logprobs'.");
			}
		}
		JsonNode top = body.get("top_logprobs");
		if (top != null && !top.isNull()) {
			throw InvalidRequestException.unsupported("top_logprobs",
					"Provider '" + provider + "' does not report log probabilities: remove 'top_logprobs'.");
		}
	}

	/**
	 * The JSON schema that {@code response_format} asks the answer to follow, or null for
	 * plain text.
	 * @param schemas whether the provider can follow a schema; if not, any JSON format is
	 * refused
	 */
	public static @Nullable String jsonSchema(JsonNode body, String provider, boolean schemas) {
		JsonNode format = body.get("response_format");
		if (format == null || format.isNull()) {
			return null;
		}
		String type = format.path("type").asString(null);
		if (!format.isObject() || type == null) {
			throw InvalidRequestException.invalidField("response_format",
					"'response_format' must be an object with a 'type': text, json_object or json_schema.");
		}
		switch (type) {
			case "text" -> {
				return null;
			}
			case "json_schema" -> {
				JsonNode schema = format.path("json_schema").path("schema");
				if (!schema.isObject()) {
					throw InvalidRequestException.invalidField("response_format.json_schema.schema",
							"'response_format.json_schema.schema' must be a JSON schema object.");
				}
				if (!schemas) {
					throw InvalidRequestException.unsupported("response_format",
							"Provider '" + provider + "' cannot follow a JSON schema: remove 'response_format'.");
				}
				return schema.toString();
			}
			case "json_object" -> throw InvalidRequestException.unsupported("response_format",
					schemas ? "Provider '" + provider
							+ "' needs a schema for JSON output: use response_format type 'json_schema'."
							: "Provider '" + provider + "' cannot guarantee JSON output: remove 'response_format'.");
			default -> throw InvalidRequestException.invalidField("response_format",
					"Unknown response_format type '" + type + "': use text, json_object or json_schema.");
		}
	}

	/** The request's {@code tool_choice}, checked against its {@code tools}. */
	public static ToolChoice toolChoice(JsonNode body) {
		JsonNode choice = body.get("tool_choice");
		if (choice == null || choice.isNull()) {
			return ToolChoice.AUTO;
		}
		if (choice.isString()) {
			return switch (choice.stringValue()) {
				case "auto" -> ToolChoice.AUTO;
				case "none" -> ToolChoice.NONE;
				case "required" -> ToolChoice.REQUIRED;
				default -> throw InvalidRequestException.invalidField("tool_choice",
						"'tool_choice' must be none, auto, required or {\"type\":\"function\",\"function\":{\"name\":...}}.");
			};
		}
		String name = choice.path("function").path("name").asString(null);
		if (!choice.isObject() || !"function".equals(choice.path("type").asString(null)) || name == null) {
			throw InvalidRequestException.invalidField("tool_choice",
					"'tool_choice' must be none, auto, required or {\"type\":\"function\",\"function\":{\"name\":...}}.");
		}
		Set<String> tools = new HashSet<>();
		for (JsonNode tool : body.path("tools")) {
			tools.add(tool.path("function").path("name").asString(""));
		}
		if (!tools.contains(name)) {
			throw InvalidRequestException.invalidField("tool_choice",
					"'tool_choice' names the function '" + name + "', which is not among 'tools'.");
		}
		return new ToolChoice(ToolChoice.Mode.NAMED, name);
	}

	/**
	 * Whether and which tool the model may or must call.
	 *
	 * @param mode none, auto, required, or named
	 * @param name the function a named choice requires
	 */
	public record ToolChoice(Mode mode, @Nullable String name) {

		public static final ToolChoice AUTO = new ToolChoice(Mode.AUTO, null);

		public static final ToolChoice NONE = new ToolChoice(Mode.NONE, null);

		public static final ToolChoice REQUIRED = new ToolChoice(Mode.REQUIRED, null);

		/** The kinds of choice. */
		public enum Mode {

			/** No tool may be called. */
			NONE,

			/** The model decides. */
			AUTO,

			/** Some tool must be called. */
			REQUIRED,

			/** The named tool must be called. */
			NAMED

		}

	}

}
