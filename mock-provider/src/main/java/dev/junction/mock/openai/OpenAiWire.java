package dev.junction.mock.openai;

import dev.junction.mock.completion.Completion;
import dev.junction.mock.completion.FinishReason;
import dev.junction.openai.CompletionUsage;
import tools.jackson.databind.json.JsonMapper;

/** Pieces of the OpenAI wire format shared by whole answers and chunks. */
final class OpenAiWire {

	static final JsonMapper JSON = JsonMapper.shared();

	static final String SYSTEM_FINGERPRINT = "fp_mock";

	static final String SERVICE_TIER = "default";

	private OpenAiWire() {
	}

	static String finishReason(FinishReason reason) {
		return switch (reason) {
			case STOP -> "stop";
			case LENGTH -> "length";
			case TOOL_CALLS -> "tool_calls";
		};
	}

	/** The usage with every detail OpenAI reports, all zero. */
	static CompletionUsage usage(Completion completion) {
		return CompletionUsage.detailed(completion.promptTokens(), completion.completionTokens(), 0, 0);
	}

	static long now() {
		return System.currentTimeMillis() / 1000;
	}

}
