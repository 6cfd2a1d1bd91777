package dev.junction.messaging.web;

import java.net.URI;
import java.util.List;

import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;

/** Every kind of error the API answers with, each with a stable {@code type} URI. */
public enum ProblemType {

	/** A field or parameter is missing or invalid. */
	INVALID_REQUEST(HttpStatus.BAD_REQUEST, "invalid-request", "Invalid request"),

	/** No API key, or an unknown or revoked one. */
	UNAUTHORIZED(HttpStatus.UNAUTHORIZED, "unauthorized", "Unauthorized"),

	/** The API key lacks the scope or the instance the request needs. */
	FORBIDDEN(HttpStatus.FORBIDDEN, "forbidden", "Forbidden"),

	/** The resource does not exist. */
	NOT_FOUND(HttpStatus.NOT_FOUND, "not-found", "Not found"),

	/** The method is not supported on this path. */
	METHOD_NOT_ALLOWED(HttpStatus.METHOD_NOT_ALLOWED, "method-not-allowed", "Method not allowed"),

	/** No acceptable representation. */
	NOT_ACCEPTABLE(HttpStatus.NOT_ACCEPTABLE, "not-acceptable", "Not acceptable"),

	/** The request took longer than the configured timeout. */
	REQUEST_TIMEOUT(HttpStatus.REQUEST_TIMEOUT, "request-timeout", "Request timeout"),

	/**
	 * The request conflicts with the current state (duplicate name, reused idempotency
	 * key...).
	 */
	CONFLICT(HttpStatus.CONFLICT, "conflict", "Conflict"),

	/** The body is larger than the configured limit. */
	PAYLOAD_TOO_LARGE(HttpStatus.CONTENT_TOO_LARGE, "payload-too-large", "Payload too large"),

	/** The body's media type is not supported. */
	UNSUPPORTED_MEDIA_TYPE(HttpStatus.UNSUPPORTED_MEDIA_TYPE, "unsupported-media-type", "Unsupported media type"),

	/** A rate limit denied the request. */
	RATE_LIMITED(HttpStatus.TOO_MANY_REQUESTS, "rate-limited", "Too many requests"),

	/** An unexpected failure; details are in the server log only. */
	INTERNAL(HttpStatus.INTERNAL_SERVER_ERROR, "internal", "Internal server error"),

	/** A dependency (the database, Redis) is unavailable. */
	UNAVAILABLE(HttpStatus.SERVICE_UNAVAILABLE, "unavailable", "Service unavailable");

	private static final String BASE = "https://junction.dev/problems/";

	private final HttpStatus status;

	private final URI type;

	private final String title;

	ProblemType(HttpStatus status, String slug, String title) {
		this.status = status;
		this.type = URI.create(BASE + slug);
		this.title = title;
	}

	public HttpStatus status() {
		return this.status;
	}

	public URI type() {
		return this.type;
	}

	public String title() {
		return this.title;
	}

	/** A problem document of this type with {@code detail}. */
	public ProblemDetail problem(String detail) {
		ProblemDetail problem = ProblemDetail.forStatusAndDetail(this.status, detail);
		problem.setType(this.type);
		problem.setTitle(this.title);
		return problem;
	}

	/**
	 * A 400 problem document naming the field at fault ({@code field}) and every invalid
	 * field ({@code errors}).
	 */
	public static ProblemDetail invalidFields(String detail, String field, List<FieldError> errors) {
		ProblemDetail problem = INVALID_REQUEST.problem(detail);
		problem.setProperty("field", field);
		problem.setProperty("errors", errors);
		return problem;
	}

	/** The type for a framework error carrying only a status code. */
	public static ProblemType forStatus(int status) {
		for (ProblemType candidate : values()) {
			if (candidate.status.value() == status) {
				return candidate;
			}
		}
		return (status >= 500) ? INTERNAL : INVALID_REQUEST;
	}

}
