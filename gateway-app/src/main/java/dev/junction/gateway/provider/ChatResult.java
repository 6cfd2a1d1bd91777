package dev.junction.gateway.provider;

import org.jspecify.annotations.Nullable;

/**
 * A complete, non-streamed answer: OpenAI {@code chat.completion} JSON, or the answer of
 * another API when the provider was called in it.
 *
 * @param body the JSON sent to the client, as the upstream produced it where possible
 * @param usage token counts
 * @param finishReason the first choice's finish reason
 * @param responseModel the model the upstream says answered
 * @param api the API the body is in
 */
public record ChatResult(byte[] body, Usage usage, @Nullable String finishReason, @Nullable String responseModel,
		ClientApi api) implements ChatOutput {

	/** A {@code chat.completion}. */
	public ChatResult(byte[] body, Usage usage, @Nullable String finishReason, @Nullable String responseModel) {
		this(body, usage, finishReason, responseModel, ClientApi.CHAT_COMPLETIONS);
	}

}
