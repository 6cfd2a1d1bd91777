package dev.junction.messaging.web;

/** 400 naming the field or parameter at fault. */
public final class InvalidFieldException extends ApiException {

	private final String field;

	InvalidFieldException(String field, String detail) {
		super(ProblemType.INVALID_REQUEST, "Invalid '" + field + "': " + detail);
		this.field = field;
	}

	public String field() {
		return this.field;
	}

}
