package dev.junction.openai;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import org.jspecify.annotations.Nullable;

/**
 * The token counts of a completion.
 *
 * @param promptTokens tokens read
 * @param completionTokens tokens generated
 * @param totalTokens both
 * @param promptTokensDetails how the tokens read divide, where known
 * @param completionTokensDetails how the tokens generated divide, where known
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record CompletionUsage(@JsonProperty("prompt_tokens") long promptTokens,
		@JsonProperty("completion_tokens") long completionTokens, @JsonProperty("total_tokens") long totalTokens,
		@JsonProperty("prompt_tokens_details") @Nullable PromptTokensDetails promptTokensDetails,
		@JsonProperty("completion_tokens_details") @Nullable CompletionTokensDetails completionTokensDetails) {

	/** Counts without details. */
	public static CompletionUsage of(long promptTokens, long completionTokens) {
		return new CompletionUsage(promptTokens, completionTokens, promptTokens + completionTokens, null, null);
	}

	/**
	 * Counts with their details as OpenAI reports them, every detail but those given
	 * zero.
	 */
	public static CompletionUsage detailed(long promptTokens, long completionTokens, long cachedTokens,
			long reasoningTokens) {
		return new CompletionUsage(promptTokens, completionTokens, promptTokens + completionTokens,
				new PromptTokensDetails(cachedTokens, 0), new CompletionTokensDetails(reasoningTokens, 0, 0, 0));
	}

	/**
	 * Of the tokens read.
	 *
	 * @param cachedTokens those served from the provider's prompt cache
	 * @param audioTokens those of audio input
	 */
	@JsonIgnoreProperties(ignoreUnknown = true)
	public record PromptTokensDetails(@JsonProperty("cached_tokens") long cachedTokens,
			@JsonProperty("audio_tokens") long audioTokens) {

	}

	/**
	 * Of the tokens generated.
	 *
	 * @param reasoningTokens those spent on reasoning
	 * @param audioTokens those of audio output
	 * @param acceptedPredictionTokens those of a predicted output that were used
	 * @param rejectedPredictionTokens those of a predicted output that were not
	 */
	@JsonIgnoreProperties(ignoreUnknown = true)
	public record CompletionTokensDetails(@JsonProperty("reasoning_tokens") long reasoningTokens,
			@JsonProperty("audio_tokens") long audioTokens,
			@JsonProperty("accepted_prediction_tokens") long acceptedPredictionTokens,
			@JsonProperty("rejected_prediction_tokens") long rejectedPredictionTokens) {

	}

}
