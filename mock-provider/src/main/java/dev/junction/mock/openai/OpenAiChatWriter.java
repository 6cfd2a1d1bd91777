package dev.junction.mock.openai;

import java.nio.charset.StandardCharsets;

import dev.junction.mock.completion.Completion;
import dev.junction.mock.completion.Conversation;
import dev.junction.mock.completion.ToolCall;
import dev.junction.mock.pipeline.JsonText;
import dev.junction.mock.pipeline.ResponseIds;

/** Writes a whole {@code chat.completion} object. */
final class OpenAiChatWriter {

	private OpenAiChatWriter() {
	}

	static byte[] write(Conversation conversation, Completion completion) {
		String text = completion.text();
		StringBuilder json = new StringBuilder(512 + ((text != null) ? text.length() : 0));
		json.append("{\"id\":\"")
			.append(ResponseIds.next("chatcmpl-"))
			.append("\",\"object\":\"chat.completion\",\"created\":")
			.append(OpenAiWire.now())
			.append(",\"model\":");
		JsonText.string(json, conversation.model())
			.append(",\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":");
		ToolCall call = completion.toolCall();
		if (call != null) {
			json.append("null,\"tool_calls\":[{\"id\":\"")
				.append(ResponseIds.next("call_"))
				.append("\",\"type\":\"function\",\"function\":{\"name\":");
			JsonText.string(json, call.name()).append(",\"arguments\":");
			JsonText.string(json, call.arguments()).append("}}]");
		}
		else {
			JsonText.string(json, text);
		}
		json.append(",\"refusal\":null,\"annotations\":[]},\"logprobs\":null,\"finish_reason\":\"")
			.append(OpenAiWire.finishReason(completion.finishReason()))
			.append("\"}],\"usage\":");
		OpenAiWire.usage(json, completion)
			.append(",\"service_tier\":\"default\",\"system_fingerprint\":\"")
			.append(OpenAiWire.SYSTEM_FINGERPRINT)
			.append("\"}");
		return json.toString().getBytes(StandardCharsets.UTF_8);
	}

}
