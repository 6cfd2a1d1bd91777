package dev.junction.mock.openai;

import dev.junction.mock.completion.Completion;
import dev.junction.mock.completion.FinishReason;

/** Pieces of the OpenAI wire format shared by whole answers and chunks. */
final class OpenAiWire {

	static final String SYSTEM_FINGERPRINT = "fp_mock";

	private OpenAiWire() {
	}

	static String finishReason(FinishReason reason) {
		return switch (reason) {
			case STOP -> "stop";
			case LENGTH -> "length";
			case TOOL_CALLS -> "tool_calls";
		};
	}

	static StringBuilder usage(StringBuilder json, Completion completion) {
		int prompt = completion.promptTokens();
		int output = completion.completionTokens();
		return json.append("{\"prompt_tokens\":")
			.append(prompt)
			.append(",\"completion_tokens\":")
			.append(output)
			.append(",\"total_tokens\":")
			.append((long) prompt + output)
			.append(",\"prompt_tokens_details\":{\"cached_tokens\":0,\"audio_tokens\":0}")
			.append(",\"completion_tokens_details\":{\"reasoning_tokens\":0,\"audio_tokens\":0,")
			.append("\"accepted_prediction_tokens\":0,\"rejected_prediction_tokens\":0}}");
	}

	static long now() {
		return System.currentTimeMillis() / 1000;
	}

}
