package dev.junction.gateway.chat;

import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * What one {@code chat.completion.chunk} adds to a stream, as the translators into other
 * APIs' events read it: the first choice's text and tool-call fragments, its finish
 * reason, and the usage when the chunk carries it.
 *
 * @param id the completion's id
 * @param model the model the upstream says answers
 * @param text text added, or null
 * @param toolCalls tool-call fragments, each with its {@code index}
 * @param finishReason the finish reason, on the chunk that has it
 * @param usage the usage object, on the chunk that has it
 */
public record ChunkDelta(@Nullable String id, @Nullable String model, @Nullable String text, List<JsonNode> toolCalls,
		@Nullable String finishReason, @Nullable JsonNode usage) {

	public static ChunkDelta read(ObjectMapper mapper, String json) {
		JsonNode chunk = mapper.readTree(json);
		JsonNode choice = chunk.path("choices").path(0);
		JsonNode delta = choice.path("delta");
		JsonNode content = delta.get("content");
		String text = (content != null && content.isString() && !content.stringValue().isEmpty())
				? content.stringValue() : null;
		List<JsonNode> toolCalls = new ArrayList<>();
		delta.path("tool_calls").forEach(toolCalls::add);
		JsonNode usage = chunk.get("usage");
		String model = chunk.path("model").asString(null);
		return new ChunkDelta(chunk.path("id").asString(null), (model != null && !model.isBlank()) ? model : null, text,
				toolCalls, choice.path("finish_reason").asString(null),
				(usage != null && usage.isObject()) ? usage : null);
	}

	/** The text of a message's {@code content}: a string, or the text of its parts. */
	public static String text(@Nullable JsonNode content) {
		if (content == null || content.isNull()) {
			return "";
		}
		if (content.isString()) {
			return content.stringValue();
		}
		StringBuilder text = new StringBuilder();
		for (JsonNode part : content) {
			text.append(part.path("text").asString(""));
		}
		return text.toString();
	}

}
