package dev.junction.gateway.provider;

import tools.jackson.databind.JsonNode;

/**
 * Token counts of one completion.
 *
 * @param promptTokens tokens read
 * @param completionTokens tokens generated
 */
public record Usage(long promptTokens, long completionTokens) {

	/** No usage reported. */
	public static final Usage NONE = new Usage(0, 0);

	public long totalTokens() {
		return this.promptTokens + this.completionTokens;
	}

	/** Reads an OpenAI {@code usage} object; {@link #NONE} if absent. */
	public static Usage fromOpenAi(JsonNode usage) {
		if (usage == null || !usage.isObject()) {
			return NONE;
		}
		return new Usage(usage.path("prompt_tokens").asLong(0), usage.path("completion_tokens").asLong(0));
	}

}
