package dev.junction.messaging.web;

import java.time.Duration;

import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;
import org.springframework.util.unit.DataSize;
import org.springframework.web.ErrorResponse;

/**
 * An error the API answers with a problem document (Spring's {@link ProblemDetail}).
 * Carries no stack trace: these are expected outcomes, not bugs.
 */
public sealed class ApiException extends RuntimeException implements ErrorResponse
		permits InvalidFieldException, RateLimitedException {

	private final ProblemType type;

	protected ApiException(ProblemType type, String detail) {
		super(detail, null, false, false);
		this.type = type;
	}

	public ProblemType type() {
		return this.type;
	}

	@Override
	public HttpStatusCode getStatusCode() {
		return this.type.status();
	}

	/** The problem document: a new one on each call, for the handler to complete. */
	@Override
	public ProblemDetail getBody() {
		return this.type.problem(getMessage());
	}

	/** 400: {@code field} is missing or invalid. */
	public static InvalidFieldException invalid(String field, String detail) {
		return new InvalidFieldException(field, detail);
	}

	/** 401. */
	public static ApiException unauthorized(String detail) {
		return new ApiException(ProblemType.UNAUTHORIZED, detail);
	}

	/** 403. */
	public static ApiException forbidden(String detail) {
		return new ApiException(ProblemType.FORBIDDEN, detail);
	}

	/** 404 for the {@code resource} with {@code id}. */
	public static ApiException notFound(String resource, Object id) {
		return new ApiException(ProblemType.NOT_FOUND, resource + " " + id + " not found");
	}

	/** 408 after {@code timeout}. */
	public static ApiException requestTimeout(Duration timeout) {
		return new ApiException(ProblemType.REQUEST_TIMEOUT,
				"Request not completed within " + timeout.toMillis() + " ms");
	}

	/** 409. */
	public static ApiException conflict(String detail) {
		return new ApiException(ProblemType.CONFLICT, detail);
	}

	/** 413 for a body over {@code limit}. */
	public static ApiException payloadTooLarge(DataSize limit) {
		return new ApiException(ProblemType.PAYLOAD_TOO_LARGE,
				"Request body exceeds the limit of " + limit.toBytes() + " bytes");
	}

	/** 503. */
	public static ApiException unavailable(String detail) {
		return new ApiException(ProblemType.UNAVAILABLE, detail);
	}

}
