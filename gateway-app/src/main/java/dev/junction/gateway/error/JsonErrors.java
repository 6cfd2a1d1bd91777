package dev.junction.gateway.error;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import tools.jackson.core.JacksonException;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.core.exc.StreamConstraintsException;
import tools.jackson.core.exc.UnexpectedEndOfInputException;

/**
 * What is wrong with a JSON document, said in the client's terms: the parser's own
 * messages name its classes, features and settings, which mean nothing to a client.
 */
public final class JsonErrors {

	private static final Pattern LIMIT = Pattern
		.compile("^(.+?) \\(\\d+\\) (?:magnitude )?exceeds the maximum allowed \\((\\d+)");

	private JsonErrors() {
	}

	/** What is wrong, with the line and column where the parser stopped. */
	public static String describe(JacksonException error) {
		String reason = reason(error);
		TokenStreamLocation location = error.getLocation();
		if (location != null && location.getLineNr() > 0 && location.getColumnNr() > 0) {
			return reason + " (line " + location.getLineNr() + ", column " + location.getColumnNr() + ")";
		}
		return reason;
	}

	private static String reason(JacksonException error) {
		String message = firstLine(String.valueOf(error.getOriginalMessage()));
		if (error instanceof StreamConstraintsException) {
			return limit(message);
		}
		if (error instanceof UnexpectedEndOfInputException || message.startsWith("Unexpected end-of-input")) {
			return "the JSON ends before it is complete";
		}
		if (message.startsWith("Non-standard token")) {
			return "NaN and Infinity are not JSON numbers";
		}
		if (message.startsWith("Trailing token")) {
			return "there is more content after the JSON value";
		}
		// The parser quotes the offending input (part of a prompt or a secret) and names
		// its own
		// types after a backtick: keep only the words before either.
		int quoted = indexOfAny(message, "'`\"(:");
		if (quoted >= 0) {
			message = message.substring(0, quoted);
		}
		message = message.strip();
		return message.isEmpty() ? "it cannot be parsed" : message;
	}

	private static String limit(String message) {
		Matcher limit = LIMIT.matcher(message);
		if (!limit.find()) {
			return "it exceeds a size limit";
		}
		String max = limit.group(2);
		return switch (limit.group(1)) {
			case "Number value length" -> "a number has more than " + max + " digits";
			case "String value length" -> "a string is longer than " + max + " characters";
			case "Name length" -> "a field name is longer than " + max + " characters";
			case "Document nesting depth" -> "it is nested more than " + max + " levels deep";
			case "Document length" -> "it is longer than " + max + " characters";
			case "Token count" -> "it has more than " + max + " tokens";
			case "BigDecimal scale" -> "a number's exponent is larger than " + max;
			default -> "it exceeds a size limit";
		};
	}

	private static int indexOfAny(String text, String characters) {
		for (int i = 0; i < text.length(); i++) {
			if (characters.indexOf(text.charAt(i)) >= 0) {
				return i;
			}
		}
		return -1;
	}

	private static String firstLine(String message) {
		int newline = message.indexOf('\n');
		return (newline >= 0) ? message.substring(0, newline) : message;
	}

}
