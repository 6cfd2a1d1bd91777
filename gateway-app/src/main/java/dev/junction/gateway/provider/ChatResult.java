package dev.junction.gateway.provider;

import org.jspecify.annotations.Nullable;

/**
 * A complete, non-streamed answer in OpenAI {@code chat.completion} JSON.
 *
 * @param body the JSON sent to the client, as the upstream produced it where possible
 * @param usage token counts
 * @param finishReason the first choice's finish reason
 * @param responseModel the model the upstream says answered
 */
public record ChatResult(byte[] body, Usage usage, @Nullable String finishReason,
		@Nullable String responseModel) implements ChatOutput {
}
