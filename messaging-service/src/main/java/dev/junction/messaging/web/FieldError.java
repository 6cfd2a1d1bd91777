package dev.junction.messaging.web;

/**
 * One invalid field of a 400 problem document.
 *
 * @param field the field's path
 * @param message why it is invalid
 */
public record FieldError(String field, String message) {
}
