package dev.junction.mock.anthropic;

import dev.junction.mock.completion.Completion;
import dev.junction.mock.completion.FinishReason;

/** Pieces of the Anthropic wire format shared by whole messages and stream events. */
final class AnthropicWire {

	private AnthropicWire() {
	}

	static String stopReason(FinishReason reason) {
		return switch (reason) {
			case STOP -> "end_turn";
			case LENGTH -> "max_tokens";
			case TOOL_CALLS -> "tool_use";
		};
	}

	/**
	 * The usage of a message ({@code service_tier} included) or of a
	 * {@code message_delta} (without it).
	 */
	static StringBuilder usage(StringBuilder json, Completion completion, int outputTokens, boolean withTier) {
		json.append("{\"input_tokens\":")
			.append(completion.promptTokens())
			.append(",\"cache_creation_input_tokens\":0,\"cache_read_input_tokens\":0,\"output_tokens\":")
			.append(outputTokens);
		return withTier ? json.append(",\"service_tier\":\"standard\"}") : json.append('}');
	}

}
