package dev.junction.messaging.web;

import java.time.temporal.Temporal;
import java.util.Arrays;
import java.util.Collection;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import tools.jackson.core.JacksonException;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.core.exc.InputCoercionException;
import tools.jackson.core.exc.StreamConstraintsException;
import tools.jackson.core.exc.StreamReadException;
import tools.jackson.core.exc.UnexpectedEndOfInputException;
import tools.jackson.databind.exc.MismatchedInputException;
import tools.jackson.databind.exc.UnrecognizedPropertyException;

/**
 * Says what is wrong with a JSON body in the client's terms: the field at fault and why,
 * never the parser's own message, classes, features or limits.
 */
final class JsonInputErrors {

	/** The field named when the fault is in the body as a whole. */
	static final String BODY = "body";

	private static final Pattern DUPLICATE = Pattern.compile("^Duplicate Object property \"(.*)\"");

	private JsonInputErrors() {
	}

	/** The 400 that {@code ex} means. */
	static InvalidFieldException describe(JacksonException ex) {
		String field = fieldPath(ex);
		if (ex instanceof StreamConstraintsException) {
			return ApiException.invalid(orBody(field), limit(ex.getOriginalMessage()));
		}
		if (ex instanceof InputCoercionException) {
			return ApiException.invalid(orBody(field), "number out of range");
		}
		if (ex instanceof UnexpectedEndOfInputException) {
			return ApiException.invalid(BODY, "the JSON ends before it is complete");
		}
		if (ex instanceof StreamReadException read) {
			Matcher duplicate = DUPLICATE.matcher(String.valueOf(read.getOriginalMessage()));
			if (duplicate.find()) {
				return ApiException.invalid(child(field, duplicate.group(1)), "given more than once");
			}
			return ApiException.invalid(BODY, "not valid JSON" + where(read.getLocation()));
		}
		if (ex instanceof UnrecognizedPropertyException unknown) {
			return ApiException.invalid(orBody(field),
					"not a field of this request" + accepted(unknown.getKnownPropertyIds()));
		}
		if (ex instanceof NulFreeStrings.NulCharacterException) {
			return ApiException.invalid(orBody(field), "must not contain the NUL character (U+0000)");
		}
		if (ex instanceof MismatchedInputException mismatch) {
			if (field.isEmpty()) {
				return ApiException.invalid(BODY, "must be one JSON object");
			}
			return ApiException.invalid(field, expected(mismatch.getTargetType()));
		}
		return ApiException.invalid(orBody(field), "invalid value");
	}

	private static String limit(String message) {
		String text = String.valueOf(message);
		if (text.startsWith("Number")) {
			return "a number has too many digits";
		}
		if (text.startsWith("Document nesting")) {
			return "the JSON is nested too deeply";
		}
		if (text.startsWith("String")) {
			return "a string is too long";
		}
		if (text.startsWith("Name")) {
			return "a field name is too long";
		}
		return "the JSON is larger than the service accepts";
	}

	private static String expected(Class<?> type) {
		if (type == null) {
			return "has the wrong type";
		}
		if (type.isEnum()) {
			return "must be one of " + Arrays.stream(type.getEnumConstants())
				.map((constant) -> ((Enum<?>) constant).name().toLowerCase(Locale.ROOT))
				.toList();
		}
		if (type == UUID.class) {
			return "must be a UUID";
		}
		if (Temporal.class.isAssignableFrom(type)) {
			return "must be an ISO-8601 timestamp such as 2026-01-31T10:15:30Z";
		}
		if (CharSequence.class.isAssignableFrom(type)) {
			return "must be a string";
		}
		if (type == Boolean.class || type == boolean.class) {
			return "must be true or false";
		}
		if (Number.class.isAssignableFrom(type) || (type.isPrimitive() && type != boolean.class)) {
			return "must be a number";
		}
		if (Collection.class.isAssignableFrom(type) || type.isArray()) {
			return "must be an array";
		}
		if (Map.class.isAssignableFrom(type) || type.isRecord()) {
			return "must be an object";
		}
		return "has the wrong type";
	}

	private static String accepted(Collection<Object> known) {
		if (known == null || known.isEmpty()) {
			return "";
		}
		return " (accepted: " + String.join(", ", known.stream().map(String::valueOf).sorted().toList()) + ")";
	}

	private static String where(TokenStreamLocation location) {
		if (location == null || location.getLineNr() < 1) {
			return "";
		}
		return " at line " + location.getLineNr() + ", column " + location.getColumnNr();
	}

	private static String fieldPath(JacksonException ex) {
		StringBuilder field = new StringBuilder();
		for (JacksonException.Reference reference : ex.getPath()) {
			if (reference.getPropertyName() != null) {
				if (!field.isEmpty()) {
					field.append('.');
				}
				field.append(reference.getPropertyName());
			}
			else if (reference.getIndex() >= 0) {
				field.append('[').append(reference.getIndex()).append(']');
			}
		}
		return field.toString();
	}

	private static String child(String parent, String name) {
		if (parent.isEmpty() || parent.equals(name) || parent.endsWith("." + name)) {
			return parent.isEmpty() ? name : parent;
		}
		return parent + "." + name;
	}

	private static String orBody(String field) {
		return field.isEmpty() ? BODY : field;
	}

}
