package dev.junction.gateway.provider;

import org.jspecify.annotations.Nullable;

/**
 * One streamed {@code chat.completion.chunk}, as the JSON of one SSE {@code data:} line,
 * or one event of another API's stream when the provider was called in it.
 *
 * @param json the chunk's JSON
 * @param usage token counts, on the chunk that carries them (for other APIs: the counts
 * so far)
 * @param usageOnly whether this is the final usage chunk (no choices), which clients get
 * only when they asked for {@code stream_options.include_usage}
 * @param api the API the event belongs to
 * @param event the SSE event name, for APIs that name their events
 * @param failed whether the event ends the answer as failed, though the stream itself
 * ends normally (a Responses {@code response.failed})
 */
public record ChatChunk(String json, @Nullable Usage usage, boolean usageOnly, ClientApi api, @Nullable String event,
		boolean failed) implements ChatOutput {

	/** An event of an API's stream. */
	public ChatChunk(String json, @Nullable Usage usage, boolean usageOnly, ClientApi api, @Nullable String event) {
		this(json, usage, usageOnly, api, event, false);
	}

	/** A {@code chat.completion.chunk}. */
	public ChatChunk(String json, @Nullable Usage usage, boolean usageOnly) {
		this(json, usage, usageOnly, ClientApi.CHAT_COMPLETIONS, null);
	}

	public static ChatChunk of(String json) {
		return new ChatChunk(json, null, false);
	}

}
