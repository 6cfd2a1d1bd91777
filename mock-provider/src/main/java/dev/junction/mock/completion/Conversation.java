package dev.junction.mock.completion;

import java.util.List;

/**
 * What the emulator needs from a chat request, whatever the provider's wire format.
 *
 * @param model the requested model, echoed in the answer
 * @param stream whether the answer is a stream
 * @param includeUsage whether an OpenAI stream ends with a usage chunk
 * @param maxTokens the request's bound on completion tokens, or null
 * @param promptChars characters of all text the request sends (system, messages, tool
 * results)
 * @param lastUserText text of the last user message, which the answer echoes
 * @param endsWithToolResult whether the last message gives a tool's result back
 * @param tools the tools offered, in order
 * @param toolChoice whether and which tool to call
 */
public record Conversation(String model, boolean stream, boolean includeUsage, Integer maxTokens, long promptChars,
		String lastUserText, boolean endsWithToolResult, List<ToolSpec> tools, ToolChoice toolChoice) {
}
