package dev.junction.mock.behavior;

/** An {@code x-mock-*} header whose value cannot be used; answered with 400. */
public final class InvalidMockHeaderException extends RuntimeException {

	InvalidMockHeaderException(String header, String value, String rule) {
		super("Invalid header " + header + ": '" + value + "' " + rule, null, false, false);
	}

}
