package dev.junction.mock.completion;

/**
 * Whether and which tool the request lets or makes the model call.
 *
 * @param mode none, auto, or required
 * @param name the tool the request names, or null
 */
public record ToolChoice(Mode mode, String name) {

	/** The model may call a tool: it does, unless the last message is a tool result. */
	public static final ToolChoice AUTO = new ToolChoice(Mode.AUTO, null);

	/** The model must not call a tool. */
	public static final ToolChoice NONE = new ToolChoice(Mode.NONE, null);

	/** The model must call a tool. */
	public static final ToolChoice REQUIRED = new ToolChoice(Mode.REQUIRED, null);

	/** The model must call the named tool. */
	public static ToolChoice named(String name) {
		return new ToolChoice(Mode.REQUIRED, name);
	}

	/**
	 * OpenAI's string form: {@code none}, {@code required}, anything else {@code auto}.
	 */
	public static ToolChoice ofOpenAiMode(String mode) {
		return switch (mode) {
			case "none" -> NONE;
			case "required" -> REQUIRED;
			default -> AUTO;
		};
	}

	/** How the request constrains tool calls. */
	public enum Mode {

		NONE, AUTO, REQUIRED

	}
}
