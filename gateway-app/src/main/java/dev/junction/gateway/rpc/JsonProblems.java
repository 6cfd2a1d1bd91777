package dev.junction.gateway.rpc;

import java.util.Locale;

import dev.junction.gateway.error.InvalidRequestException;
import tools.jackson.core.JacksonException;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.core.exc.StreamConstraintsException;

/**
 * Says what is wrong with JSON that could not be read, in the sender's terms: what and
 * where, never the parser's class, feature or source names, nor the input itself.
 */
final class JsonProblems {

	private JsonProblems() {
	}

	static String describe(JacksonException failure) {
		String message = String.valueOf(failure.getOriginalMessage()).toLowerCase(Locale.ROOT);
		String what;
		if (failure instanceof StreamConstraintsException) {
			if (message.contains("number")) {
				what = "a number has too many digits";
			}
			else if (message.contains("string")) {
				what = "a string is too long";
			}
			else if (message.contains("depth") || message.contains("nesting")) {
				what = "the JSON is nested too deeply";
			}
			else {
				what = "the JSON is larger than the gateway reads";
			}
		}
		else if (message.contains("trailing token")) {
			what = "there is more after the JSON value";
		}
		else {
			// Says where, without quoting the input (it may hold a prompt or a secret).
			return InvalidRequestException.jsonSyntax(failure);
		}
		TokenStreamLocation location = failure.getLocation();
		return (location != null && location.getLineNr() > 0)
				? what + " at line " + location.getLineNr() + ", column " + location.getColumnNr() : what;
	}

}
