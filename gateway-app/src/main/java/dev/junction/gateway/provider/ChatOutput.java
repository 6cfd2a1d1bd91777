package dev.junction.gateway.provider;

import org.jspecify.annotations.Nullable;

/** What a provider call emits: one complete answer, or the chunks of a stream. */
public sealed interface ChatOutput permits ChatResult, ChatChunk {

	/** Token counts, where this output carries them. */
	@Nullable Usage usage();

}
