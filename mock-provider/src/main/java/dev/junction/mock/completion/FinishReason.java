package dev.junction.mock.completion;

/** Why an answer ended; each provider names these its own way. */
public enum FinishReason {

	/** The answer is complete. */
	STOP,

	/** The answer reached the request's max_tokens. */
	LENGTH,

	/** The answer is a tool call. */
	TOOL_CALLS

}
