package dev.junction.gateway.provider;

import tools.jackson.databind.JsonNode;

/**
 * Token counts of one completion.
 *
 * @param promptTokens tokens read
 * @param completionTokens tokens generated
 * @param cachedTokens of the tokens read, those served from the provider's prompt cache
 * @param reasoningTokens of the tokens generated, those spent on reasoning
 */
public record Usage(long promptTokens, long completionTokens, long cachedTokens, long reasoningTokens) {

	/** No usage reported. */
	public static final Usage NONE = new Usage(0, 0);

	/** Counts without cached or reasoning tokens. */
	public Usage(long promptTokens, long completionTokens) {
		this(promptTokens, completionTokens, 0, 0);
	}

	public long totalTokens() {
		return this.promptTokens + this.completionTokens;
	}

	/** Reads an OpenAI {@code usage} object; {@link #NONE} if absent. */
	public static Usage fromOpenAi(JsonNode usage) {
		if (usage == null || !usage.isObject()) {
			return NONE;
		}
		return new Usage(usage.path("prompt_tokens").asLong(0), usage.path("completion_tokens").asLong(0),
				usage.path("prompt_tokens_details").path("cached_tokens").asLong(0),
				usage.path("completion_tokens_details").path("reasoning_tokens").asLong(0));
	}

	/**
	 * Reads a Responses API {@code usage} object ({@code input_tokens} with their cached
	 * part, {@code output_tokens} with their reasoning part); {@link #NONE} if absent.
	 */
	public static Usage fromResponses(JsonNode usage) {
		if (usage == null || !usage.isObject()) {
			return NONE;
		}
		return new Usage(usage.path("input_tokens").asLong(0), usage.path("output_tokens").asLong(0),
				usage.path("input_tokens_details").path("cached_tokens").asLong(0),
				usage.path("output_tokens_details").path("reasoning_tokens").asLong(0));
	}

}
