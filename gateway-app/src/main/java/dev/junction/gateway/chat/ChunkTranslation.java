package dev.junction.gateway.chat;

import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * Turns the {@code chat.completion.chunk}s of one stream into another API's events: reads
 * each chunk once, keeps its usage and finish reason, and hands its start, text and
 * tool-call fragments to the API's own translation. One instance per stream; not
 * thread-safe (a stream delivers its chunks one at a time).
 */
public abstract class ChunkTranslation {

	protected final ObjectMapper mapper;

	/** The events the current call emits. */
	protected final List<SseEvent> out = new ArrayList<>();

	private @Nullable JsonNode usage;

	private @Nullable String finishReason;

	protected ChunkTranslation(ObjectMapper mapper) {
		this.mapper = mapper;
	}

	/** The events one chunk makes (none for some). */
	public final List<SseEvent> next(String chunkJson) {
		this.out.clear();
		ChunkDelta delta = ChunkDelta.read(this.mapper, chunkJson);
		start(delta);
		if (delta.usage() != null) {
			this.usage = delta.usage();
		}
		if (delta.text() != null) {
			text(delta.text());
		}
		for (int i = 0; i < delta.toolCalls().size(); i++) {
			tool(delta.toolCalls().get(i), i);
		}
		if (delta.finishReason() != null) {
			this.finishReason = delta.finishReason();
		}
		return List.copyOf(this.out);
	}

	/**
	 * Starts the answer on its first chunk ({@code null} when the stream ends without
	 * one).
	 */
	protected abstract void start(@Nullable ChunkDelta chunk);

	/** A fragment of the answer's text. */
	protected abstract void text(String text);

	/** A fragment of the tool call at {@code position} in its chunk. */
	protected abstract void tool(JsonNode fragment, int position);

	/** The usage the stream reported, if it did yet. */
	protected @Nullable JsonNode usage() {
		return this.usage;
	}

	/** The finish reason the stream reported, if it did yet. */
	protected @Nullable String finishReason() {
		return this.finishReason;
	}

}
