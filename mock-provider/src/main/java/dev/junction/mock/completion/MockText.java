package dev.junction.mock.completion;

import java.util.ArrayList;
import java.util.List;

/**
 * The deterministic text of the emulator's answers: {@code Received N words:} (N counting
 * the words of the last user message), then that message's words over and over, one token
 * per word, cut at the token count. "hello world" with 6 tokens gives
 * {@code "Received 2 words: hello world hello"}.
 */
public final class MockText {

	private static final String FILLER = "mock";

	private MockText() {
	}

	/** The answer's text to a prompt, {@code count} tokens long. */
	public static String reply(String prompt, int count) {
		return String.join("", tokens(prompt, count));
	}

	/** The answer's tokens, each but the first starting with a space. */
	public static List<String> tokens(String prompt, int count) {
		List<String> words = new ArrayList<>(Math.min(count, 64));
		int total = scanWords(prompt, words, count);
		List<String> tokens = new ArrayList<>(count);
		for (int i = 0; i < count; i++) {
			tokens.add(token(i, total, words));
		}
		return tokens;
	}

	/**
	 * Estimated tokens of a text of this many characters: four characters a token, at
	 * least one.
	 */
	public static int estimateTokens(long chars) {
		return (int) Math.max(1, Math.min(Integer.MAX_VALUE, (chars + 3) / 4));
	}

	private static String token(int index, int total, List<String> words) {
		return switch (index) {
			case 0 -> "Received";
			case 1 -> " " + total;
			case 2 -> (total == 1) ? " word:" : " words:";
			default -> " " + (words.isEmpty() ? FILLER : words.get((index - 3) % words.size()));
		};
	}

	/** Counts the words of a text, keeping the first {@code keep} of them. */
	private static int scanWords(String text, List<String> kept, int keep) {
		if (text == null) {
			return 0;
		}
		int count = 0;
		int start = -1;
		for (int i = 0; i <= text.length(); i++) {
			boolean space = (i == text.length()) || Character.isWhitespace(text.charAt(i));
			if (!space && start < 0) {
				start = i;
			}
			else if (space && start >= 0) {
				if (kept.size() < keep) {
					kept.add(text.substring(start, i));
				}
				count++;
				start = -1;
			}
		}
		return count;
	}

}
