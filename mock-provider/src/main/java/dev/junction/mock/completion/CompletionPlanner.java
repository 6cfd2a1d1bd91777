package dev.junction.mock.completion;

import java.util.ArrayList;
import java.util.List;

import dev.junction.mock.behavior.Behavior;

/**
 * Decides the answer to a conversation. A tool call when tools are offered,
 * {@code tool_choice} is not none, and the last message is not a tool result (a required
 * or named choice calls even then); the named tool or else the first. Otherwise
 * {@link MockText} of {@code completion-tokens} tokens, bounded by max_tokens.
 */
public final class CompletionPlanner {

	private CompletionPlanner() {
	}

	/** The answer to a conversation under a behaviour. */
	public static Completion plan(Conversation conversation, Behavior behavior) {
		int promptTokens = MockText.estimateTokens(conversation.promptChars());
		ToolSpec tool = toolToCall(conversation);
		if (tool != null) {
			String arguments = ToolArguments.forSchema(tool.parameters());
			int tokens = MockText.estimateTokens(tool.name().length() + arguments.length());
			List<String> pieces = splitText(arguments, chunkCount(behavior.streamChunks(), arguments.length()));
			return new Completion(pieces, new ToolCall(tool.name(), arguments), FinishReason.TOOL_CALLS, promptTokens,
					tokens);
		}
		int tokens = behavior.completionTokens();
		FinishReason reason = FinishReason.STOP;
		Integer max = conversation.maxTokens();
		if (max != null && max < tokens) {
			tokens = max;
			reason = FinishReason.LENGTH;
		}
		List<String> words = MockText.tokens(conversation.lastUserText(), tokens);
		return new Completion(group(words, chunkCount(behavior.streamChunks(), tokens)), null, reason, promptTokens,
				tokens);
	}

	private static ToolSpec toolToCall(Conversation conversation) {
		ToolChoice choice = conversation.toolChoice();
		if (conversation.tools().isEmpty() || choice.mode() == ToolChoice.Mode.NONE) {
			return null;
		}
		if (choice.mode() == ToolChoice.Mode.AUTO && conversation.endsWithToolResult()) {
			return null;
		}
		if (choice.name() != null) {
			for (ToolSpec tool : conversation.tools()) {
				if (tool.name().equals(choice.name())) {
					return tool;
				}
			}
		}
		return conversation.tools().get(0);
	}

	private static int chunkCount(int configured, int units) {
		return (configured <= 0) ? units : Math.min(configured, units);
	}

	/** Joins tokens into {@code count} pieces of near-equal size. */
	private static List<String> group(List<String> tokens, int count) {
		List<String> pieces = new ArrayList<>(count);
		int size = tokens.size();
		for (int i = 0; i < count; i++) {
			StringBuilder piece = new StringBuilder();
			for (int t = (int) ((long) i * size / count); t < (int) ((long) (i + 1) * size / count); t++) {
				piece.append(tokens.get(t));
			}
			pieces.add(piece.toString());
		}
		return pieces;
	}

	/**
	 * Splits a text into {@code count} pieces of near-equal length, never inside a
	 * surrogate pair.
	 */
	private static List<String> splitText(String text, int count) {
		List<String> pieces = new ArrayList<>(count);
		int start = 0;
		for (int i = 1; i <= count; i++) {
			int end = (int) ((long) i * text.length() / count);
			if (end < text.length() && end > start && Character.isHighSurrogate(text.charAt(end - 1))) {
				end++;
			}
			end = Math.max(end, start);
			pieces.add(text.substring(start, end));
			start = end;
		}
		return pieces;
	}

}
