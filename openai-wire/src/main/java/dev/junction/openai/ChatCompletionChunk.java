package dev.junction.openai;

import java.util.List;
import java.util.Optional;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import org.jspecify.annotations.Nullable;

/**
 * One {@code chat.completion.chunk} of a streamed answer: the JSON of one SSE
 * {@code data:} event.
 *
 * @param id the answer's id, the same in every chunk
 * @param object always {@value #OBJECT}
 * @param created when the answer was started, the same in every chunk
 * @param model the model that answers
 * @param serviceTier the processing tier that serves the request
 * @param systemFingerprint the back-end configuration that answers
 * @param choices the choices this chunk adds to; none in the usage chunk
 * @param usage left out (null) unless the client asked for
 * {@code stream_options.include_usage}; then {@code "usage": null} (empty) on every chunk
 * but the last, which carries the counts and no choices
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record ChatCompletionChunk(String id, String object, long created, String model,
		@JsonProperty("service_tier") @Nullable String serviceTier,
		@JsonProperty("system_fingerprint") @Nullable String systemFingerprint, List<Choice> choices,
		@Nullable Optional<CompletionUsage> usage) {

	/** The {@code object} of every chunk. */
	public static final String OBJECT = "chat.completion.chunk";

	public ChatCompletionChunk {
		choices = (choices != null) ? choices : List.of();
	}

	/** A chunk with one choice. */
	public static ChatCompletionChunk of(Head head, Choice choice) {
		return new ChatCompletionChunk(head.id(), OBJECT, head.created(), head.model(), head.serviceTier(),
				head.systemFingerprint(), List.of(choice), head.includeUsage() ? Optional.empty() : null);
	}

	/** The usage chunk that ends a stream whose client asked for usage. */
	public static ChatCompletionChunk usage(Head head, CompletionUsage usage) {
		return new ChatCompletionChunk(head.id(), OBJECT, head.created(), head.model(), head.serviceTier(),
				head.systemFingerprint(), List.of(), Optional.of(usage));
	}

	/**
	 * What every chunk of one stream shares.
	 *
	 * @param id the answer's id
	 * @param created when the answer was started, in seconds since the epoch
	 * @param model the model that answers
	 * @param serviceTier the processing tier, or null
	 * @param systemFingerprint the back-end configuration, or null
	 * @param includeUsage whether the client asked for the usage chunk, so that every
	 * other chunk says {@code "usage": null}
	 */
	public record Head(String id, long created, String model, @Nullable String serviceTier,
			@Nullable String systemFingerprint, boolean includeUsage) {

	}

	/**
	 * What a chunk adds to one choice.
	 *
	 * @param index the choice's place
	 * @param delta the added role, text or tool call pieces
	 * @param logprobs log probabilities, written as null: none is ever asked for here
	 * @param finishReason null until the choice's last chunk, then why it stopped
	 */
	@JsonInclude(JsonInclude.Include.ALWAYS)
	@JsonIgnoreProperties(ignoreUnknown = true)
	public record Choice(int index, Delta delta, @Nullable Object logprobs,
			@JsonProperty("finish_reason") @Nullable String finishReason) {

		public Choice(int index, Delta delta, @Nullable String finishReason) {
			this(index, delta, null, finishReason);
		}

	}

	/**
	 * The piece of an assistant's message a chunk adds.
	 *
	 * @param role {@code assistant}, on the first chunk only
	 * @param content more text
	 * @param toolCalls pieces of tool calls
	 */
	@JsonInclude(JsonInclude.Include.NON_NULL)
	@JsonIgnoreProperties(ignoreUnknown = true)
	public record Delta(@Nullable String role, @Nullable String content,
			@JsonProperty("tool_calls") @Nullable List<ToolCall> toolCalls) {

		/** The first delta of a stream: the role and empty text. */
		public static final Delta START = new Delta("assistant", "", null);

		/** The last delta of a choice, which adds nothing but its finish reason. */
		public static final Delta END = new Delta(null, null, null);

		/** More text. */
		public static Delta content(String content) {
			return new Delta(null, content, null);
		}

		/** Pieces of tool calls. */
		public static Delta toolCalls(List<ToolCall> calls) {
			return new Delta(null, null, calls);
		}

	}

}
