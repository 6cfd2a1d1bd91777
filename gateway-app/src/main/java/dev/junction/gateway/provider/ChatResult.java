package dev.junction.gateway.provider;

import dev.junction.openai.ChatCompletion;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.ObjectMapper;

/**
 * A complete, non-streamed answer: OpenAI {@code chat.completion} JSON, or the answer of
 * another API when the provider was called in it.
 *
 * @param body the JSON sent to the client, as the upstream produced it where possible
 * @param usage token counts
 * @param finishReason the first choice's finish reason
 * @param responseModel the model the upstream says answered
 * @param api the API the body is in
 * @param completion the chat completion the body was written from, when the provider made
 * it rather than passing an upstream's bytes on
 */
public record ChatResult(byte[] body, Usage usage, @Nullable String finishReason, @Nullable String responseModel,
		ClientApi api, @Nullable ChatCompletion completion) implements ChatOutput {

	/** An answer in {@code api}, passed on as the upstream wrote it. */
	public ChatResult(byte[] body, Usage usage, @Nullable String finishReason, @Nullable String responseModel,
			ClientApi api) {
		this(body, usage, finishReason, responseModel, api, null);
	}

	/** A {@code chat.completion} passed on as the upstream wrote it. */
	public ChatResult(byte[] body, Usage usage, @Nullable String finishReason, @Nullable String responseModel) {
		this(body, usage, finishReason, responseModel, ClientApi.CHAT_COMPLETIONS, null);
	}

	/** A {@code chat.completion} the provider made, and {@code body} written from it. */
	public ChatResult(byte[] body, Usage usage, @Nullable String finishReason, @Nullable String responseModel,
			ChatCompletion completion) {
		this(body, usage, finishReason, responseModel, ClientApi.CHAT_COMPLETIONS, completion);
	}

	/**
	 * The answer as a chat completion: the one the provider made, else the body read as
	 * one, with whatever an OpenAI-compatible upstream leaves out (ids, timestamps,
	 * counts) read as absent. For answers in the chat completions API only.
	 * @param mapper reads the body
	 * @return the completion
	 * @throws tools.jackson.core.JacksonException if the body is not a chat completion
	 */
	public ChatCompletion chatCompletion(ObjectMapper mapper) {
		return (this.completion != null) ? this.completion
				: mapper.readerFor(ChatCompletion.class)
					.without(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
					.readValue(this.body);
	}

}
