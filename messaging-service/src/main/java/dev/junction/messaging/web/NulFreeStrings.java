package dev.junction.messaging.web;

import tools.jackson.core.JsonParser;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.deser.jdk.StringDeserializer;
import tools.jackson.databind.exc.MismatchedInputException;
import tools.jackson.databind.module.SimpleModule;

/**
 * Request bodies' strings without the NUL character (U+0000), which PostgreSQL cannot
 * store in text: a string that holds one fails as the field's error, on every database.
 */
final class NulFreeStrings {

	private NulFreeStrings() {
	}

	/** The module that reads every JSON string this way. */
	static SimpleModule module() {
		return new SimpleModule("nul-free-strings").addDeserializer(String.class, new Deserializer());
	}

	private static final class Deserializer extends StringDeserializer {

		@Override
		public String deserialize(JsonParser parser, DeserializationContext context) {
			String value = super.deserialize(parser, context);
			if (value != null && value.indexOf('\0') >= 0) {
				throw new NulCharacterException(parser);
			}
			return value;
		}

	}

	/** A string held the NUL character. */
	static final class NulCharacterException extends MismatchedInputException {

		NulCharacterException(JsonParser parser) {
			super(parser, "String contains the NUL character", String.class);
		}

	}

}
