package dev.junction.openai;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import org.jspecify.annotations.Nullable;

/**
 * An OpenAI {@code chat.completion}: a whole answer.
 *
 * @param id the answer's id ({@code chatcmpl-...})
 * @param object always {@value #OBJECT}
 * @param created when it was made, in seconds since the epoch
 * @param model the model that answered
 * @param choices the answers, one unless {@code n} asked for more
 * @param usage token counts
 * @param serviceTier the processing tier that served the request
 * @param systemFingerprint the back-end configuration that answered
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record ChatCompletion(String id, String object, long created, String model, List<Choice> choices,
		@Nullable CompletionUsage usage, @JsonProperty("service_tier") @Nullable String serviceTier,
		@JsonProperty("system_fingerprint") @Nullable String systemFingerprint) {

	/** The {@code object} of every chat completion. */
	public static final String OBJECT = "chat.completion";

	public ChatCompletion {
		choices = (choices != null) ? choices : List.of();
	}

	/** A chat completion with no service tier. */
	public ChatCompletion(String id, long created, String model, List<Choice> choices, @Nullable CompletionUsage usage,
			@Nullable String systemFingerprint) {
		this(id, OBJECT, created, model, choices, usage, null, systemFingerprint);
	}

	/** The first choice's text, or null when it has none (a tool call, no choices). */
	public @Nullable String text() {
		return (!this.choices.isEmpty() && this.choices.get(0).message() != null)
				? this.choices.get(0).message().content() : null;
	}

	/** The first choice's finish reason, or null. */
	public @Nullable String finishReason() {
		return (!this.choices.isEmpty()) ? this.choices.get(0).finishReason() : null;
	}

	/**
	 * One answer.
	 *
	 * @param index its place among the choices
	 * @param message the assistant's message
	 * @param logprobs log probabilities, written as null: none is ever asked for here
	 * @param finishReason why generation stopped: {@code stop}, {@code length},
	 * {@code tool_calls}, {@code content_filter}
	 */
	@JsonInclude(JsonInclude.Include.NON_NULL)
	@JsonIgnoreProperties(ignoreUnknown = true)
	public record Choice(int index, Message message, @JsonInclude(JsonInclude.Include.ALWAYS) @Nullable Object logprobs,
			@JsonProperty("finish_reason") @JsonInclude(JsonInclude.Include.ALWAYS) @Nullable String finishReason) {

		public Choice(int index, Message message, @Nullable String finishReason) {
			this(index, message, null, finishReason);
		}

	}

	/**
	 * The assistant's message of a choice.
	 *
	 * @param role always {@code assistant}
	 * @param content its text; null (and written as null) when it calls tools instead
	 * @param toolCalls the tools it calls, if any
	 * @param refusal the model's refusal, written as null when it did not refuse
	 * @param annotations citations and the like, when the upstream gives them
	 */
	@JsonInclude(JsonInclude.Include.NON_NULL)
	@JsonIgnoreProperties(ignoreUnknown = true)
	public record Message(String role, @JsonInclude(JsonInclude.Include.ALWAYS) @Nullable String content,
			@JsonProperty("tool_calls") @Nullable List<ToolCall> toolCalls,
			@JsonInclude(JsonInclude.Include.ALWAYS) @Nullable String refusal, @Nullable List<Object> annotations) {

		/** An assistant's message with text, or with tool calls and no text. */
		public static Message assistant(@Nullable String content, @Nullable List<ToolCall> toolCalls) {
			return new Message("assistant", content, (toolCalls != null && !toolCalls.isEmpty()) ? toolCalls : null,
					null, null);
		}

	}

}
