package dev.junction.messaging.web;

import java.net.URI;
import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * An RFC 9457 problem document.
 *
 * @param type stable URI of the kind of problem
 * @param title short summary of the kind
 * @param status HTTP status
 * @param detail what went wrong with this request
 * @param instance the request path
 * @param field the field or parameter at fault, for 400
 * @param errors every invalid field, for 400
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Problem(URI type, String title, int status, String detail, String instance, String field,
		List<FieldError> errors) {

	/**
	 * One invalid field.
	 *
	 * @param field the field's path
	 * @param message why it is invalid
	 */
	public record FieldError(String field, String message) {
	}

}
