package dev.junction.mock.completion;

import tools.jackson.databind.JsonNode;

/**
 * A tool the request offers the model.
 *
 * @param name the tool's name
 * @param parameters the JSON schema of its arguments (a missing node when the request
 * gave none)
 */
public record ToolSpec(String name, JsonNode parameters) {
}
