package dev.junction.mock.completion;

/**
 * A tool call the emulator answers with.
 *
 * @param name the called tool
 * @param arguments the arguments as compact JSON text
 */
public record ToolCall(String name, String arguments) {
}
