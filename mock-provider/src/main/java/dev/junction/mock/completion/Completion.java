package dev.junction.mock.completion;

import java.util.List;

/**
 * The answer to a chat request, before it is written in a provider's format.
 *
 * @param pieces the streamed pieces: of the text, or of a tool call's arguments; joined
 * they make the whole
 * @param toolCall the tool call, or null for a text answer
 * @param finishReason why the answer ended
 * @param promptTokens estimated input tokens
 * @param completionTokens output tokens
 */
public record Completion(List<String> pieces, ToolCall toolCall, FinishReason finishReason, int promptTokens,
		int completionTokens) {

	/** The whole text of a text answer, or null for a tool call. */
	public String text() {
		return (toolCall != null) ? null : String.join("", pieces);
	}
}
