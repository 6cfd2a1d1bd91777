package dev.junction.messaging.web;

import java.util.List;

import org.springframework.http.ProblemDetail;

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

	/** The problem document, naming the field in {@code field} and {@code errors}. */
	@Override
	public ProblemDetail getBody() {
		return ProblemType.invalidFields(getMessage(), this.field, List.of(new FieldError(this.field, getMessage())));
	}

}
