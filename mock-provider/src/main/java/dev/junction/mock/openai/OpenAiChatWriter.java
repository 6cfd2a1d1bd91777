package dev.junction.mock.openai;

import java.util.List;

import dev.junction.mock.completion.Completion;
import dev.junction.mock.completion.Conversation;
import dev.junction.mock.pipeline.ResponseIds;
import dev.junction.openai.ChatCompletion;
import dev.junction.openai.ToolCall;

/** Writes a whole {@code chat.completion} object. */
final class OpenAiChatWriter {

	private OpenAiChatWriter() {
	}

	static byte[] write(Conversation conversation, Completion completion) {
		dev.junction.mock.completion.ToolCall call = completion.toolCall();
		ChatCompletion.Message message = (call != null)
				? new ChatCompletion.Message("assistant", null,
						List.of(ToolCall.of(ResponseIds.next("call_"), call.name(), call.arguments())), null, List.of())
				: new ChatCompletion.Message("assistant", completion.text(), null, null, List.of());
		ChatCompletion answer = new ChatCompletion(ResponseIds.next("chatcmpl-"), ChatCompletion.OBJECT,
				OpenAiWire.now(), conversation.model(),
				List.of(new ChatCompletion.Choice(0, message, OpenAiWire.finishReason(completion.finishReason()))),
				OpenAiWire.usage(completion), OpenAiWire.SERVICE_TIER, OpenAiWire.SYSTEM_FINGERPRINT);
		return OpenAiWire.JSON.writeValueAsBytes(answer);
	}

}
