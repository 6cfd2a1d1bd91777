package dev.junction.mock.anthropic;

import java.nio.charset.StandardCharsets;

import dev.junction.mock.completion.Completion;
import dev.junction.mock.completion.Conversation;
import dev.junction.mock.completion.ToolCall;
import dev.junction.mock.pipeline.JsonText;
import dev.junction.mock.pipeline.ResponseIds;

/** Writes a whole {@code message} object. */
final class AnthropicMessageWriter {

	private AnthropicMessageWriter() {
	}

	static byte[] write(Conversation conversation, Completion completion) {
		String text = completion.text();
		StringBuilder json = new StringBuilder(384 + ((text != null) ? text.length() : 0));
		json.append("{\"id\":\"")
			.append(ResponseIds.next("msg_"))
			.append("\",\"type\":\"message\",\"role\":\"assistant\",\"model\":");
		JsonText.string(json, conversation.model()).append(",\"content\":[");
		ToolCall call = completion.toolCall();
		if (call != null) {
			json.append("{\"type\":\"tool_use\",\"id\":\"").append(ResponseIds.next("toolu_")).append("\",\"name\":");
			JsonText.string(json, call.name()).append(",\"input\":").append(call.arguments()).append('}');
		}
		else {
			JsonText.string(json.append("{\"type\":\"text\",\"text\":"), text).append('}');
		}
		json.append("],\"stop_reason\":\"")
			.append(AnthropicWire.stopReason(completion.finishReason()))
			.append("\",\"stop_sequence\":null,\"usage\":");
		AnthropicWire.usage(json, completion, completion.completionTokens(), true).append('}');
		return json.toString().getBytes(StandardCharsets.UTF_8);
	}

}
