package dev.junction.gateway.rpc;

import java.util.Locale;

import tools.jackson.core.JacksonException;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.core.exc.StreamConstraintsException;

/**
 * Says what is wrong with JSON that could not be read, in the sender's terms: where, and
 * what was found, never the parser's class, feature or source names.
 */
final class JsonProblems {

	private JsonProblems() {
	}

	static String describe(JacksonException failure) {
		String message = String.valueOf(failure.getOriginalMessage());
		String lower = message.toLowerCase(Locale.ROOT);
		String what;
		if (failure instanceof StreamConstraintsException) {
			what = lower.contains("number") ? "a number has too many digits"
					: lower.contains("string") ? "a string is too long"
							: lower.contains("depth") || lower.contains("nesting") ? "the JSON is nested too deeply"
									: "the JSON is larger than the gateway reads";
		}
		else if (lower.contains("trailing token")) {
			what = "there is more after the JSON value";
		}
		else if (lower.contains("end-of-input")) {
			what = "the JSON ends too early";
		}
		else {
			what = plain(message);
		}
		TokenStreamLocation location = failure.getLocation();
		if (location != null && location.getLineNr() > 0) {
			what += " (line " + location.getLineNr() + ", column " + location.getColumnNr() + ")";
		}
		return what;
	}

	/** The parser's own description up to any mention of its source or types. */
	private static String plain(String message) {
		String text = message;
		for (String cut : new String[] { "\n", " at [Source", " (start marker", "(bound as", " (for ", "; nested exception" }) {
			int at = text.indexOf(cut);
			if (at > 0) {
				text = text.substring(0, at);
			}
		}
		text = text.replaceAll("`[^`]*\\.[^`]*`", "").replaceAll("\\s+", " ").strip();
		if (text.isEmpty() || text.contains("jackson") || text.contains("Feature")) {
			return "the JSON is malformed";
		}
		return Character.toLowerCase(text.charAt(0)) + text.substring(1);
	}

}
