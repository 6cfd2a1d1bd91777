package dev.junction.openai;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import org.jspecify.annotations.Nullable;

/**
 * A call of a function tool, whole in a message or in pieces in a stream's deltas.
 *
 * @param index which call of the message a streamed piece belongs to (streams only)
 * @param id the call's id (a stream's first piece of the call, and whole calls)
 * @param type always {@code function} where given
 * @param function the function called and its arguments
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record ToolCall(@Nullable Integer index, @Nullable String id, @Nullable String type, Function function) {

	/** A whole call, as a message carries it. */
	public static ToolCall of(String id, String name, String arguments) {
		return new ToolCall(null, id, "function", new Function(name, arguments));
	}

	/**
	 * The first streamed piece of call {@code index}: its id, name and first arguments.
	 */
	public static ToolCall first(int index, String id, String name, String arguments) {
		return new ToolCall(index, id, "function", new Function(name, arguments));
	}

	/** A later streamed piece of call {@code index}: more of its arguments. */
	public static ToolCall arguments(int index, String arguments) {
		return new ToolCall(index, null, null, new Function(null, arguments));
	}

	/**
	 * The function of a call.
	 *
	 * @param name its name (whole calls and a stream's first piece)
	 * @param arguments its arguments as JSON text, or the next piece of that text
	 */
	@JsonInclude(JsonInclude.Include.NON_NULL)
	@JsonIgnoreProperties(ignoreUnknown = true)
	public record Function(@Nullable String name, @Nullable String arguments) {

	}

}
