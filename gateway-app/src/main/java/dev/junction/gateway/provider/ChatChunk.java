package dev.junction.gateway.provider;

import org.jspecify.annotations.Nullable;

/**
 * One streamed {@code chat.completion.chunk}, as the JSON of one SSE {@code data:} line.
 *
 * @param json the chunk's JSON
 * @param usage token counts, on the chunk that carries them
 * @param usageOnly whether this is the final usage chunk (no choices), which clients get
 * only when they asked for {@code stream_options.include_usage}
 */
public record ChatChunk(String json, @Nullable Usage usage, boolean usageOnly) implements ChatOutput {

	public static ChatChunk of(String json) {
		return new ChatChunk(json, null, false);
	}

}
