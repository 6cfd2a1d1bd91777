package dev.junction.mock.anthropic;

import java.nio.charset.StandardCharsets;

import dev.junction.mock.completion.Completion;
import dev.junction.mock.completion.Conversation;
import dev.junction.mock.completion.ToolCall;
import dev.junction.mock.pipeline.JsonText;
import dev.junction.mock.pipeline.ResponseIds;
import dev.junction.mock.pipeline.SseStream;

/**
 * The Messages stream: {@code message_start}, {@code content_block_start}, {@code ping},
 * one {@code content_block_delta} per piece ({@code text_delta}, or
 * {@code input_json_delta} for a tool call), {@code content_block_stop},
 * {@code message_delta} (stop reason and usage), {@code message_stop}.
 */
final class AnthropicMessageStream implements SseStream {

	private static final byte[] PING = event("ping", "{\"type\": \"ping\"}");

	private static final byte[] BLOCK_STOP = event("content_block_stop",
			"{\"type\":\"content_block_stop\",\"index\":0}");

	private static final byte[] MESSAGE_STOP = event("message_stop", "{\"type\":\"message_stop\"}");

	private final Conversation conversation;

	private final Completion completion;

	private final String id = ResponseIds.next("msg_");

	AnthropicMessageStream(Conversation conversation, Completion completion) {
		this.conversation = conversation;
		this.completion = completion;
	}

	@Override
	public int size() {
		return completion.pieces().size() + 6;
	}

	@Override
	public byte[] event(int index) {
		int pieces = completion.pieces().size();
		if (index == 0) {
			return messageStart();
		}
		if (index == 1) {
			return blockStart();
		}
		if (index == 2) {
			return PING;
		}
		if (index < pieces + 3) {
			return delta(completion.pieces().get(index - 3));
		}
		if (index == pieces + 3) {
			return BLOCK_STOP;
		}
		if (index == pieces + 4) {
			return messageDelta();
		}
		return MESSAGE_STOP;
	}

	private byte[] messageStart() {
		StringBuilder json = new StringBuilder(320).append("{\"type\":\"message_start\",\"message\":{\"id\":\"")
			.append(id)
			.append("\",\"type\":\"message\",\"role\":\"assistant\",\"model\":");
		JsonText.string(json, conversation.model())
			.append(",\"content\":[],\"stop_reason\":null,\"stop_sequence\":null,\"usage\":");
		AnthropicWire.usage(json, completion, 1, true).append("}}");
		return event("message_start", json.toString());
	}

	private byte[] blockStart() {
		StringBuilder json = new StringBuilder(160)
			.append("{\"type\":\"content_block_start\",\"index\":0,\"content_block\":");
		ToolCall call = completion.toolCall();
		if (call == null) {
			json.append("{\"type\":\"text\",\"text\":\"\"}}");
		}
		else {
			json.append("{\"type\":\"tool_use\",\"id\":\"").append(ResponseIds.next("toolu_")).append("\",\"name\":");
			JsonText.string(json, call.name()).append(",\"input\":{}}}");
		}
		return event("content_block_start", json.toString());
	}

	private byte[] delta(String piece) {
		StringBuilder json = new StringBuilder(96 + piece.length())
			.append("{\"type\":\"content_block_delta\",\"index\":0,\"delta\":");
		if (completion.toolCall() == null) {
			JsonText.string(json.append("{\"type\":\"text_delta\",\"text\":"), piece);
		}
		else {
			JsonText.string(json.append("{\"type\":\"input_json_delta\",\"partial_json\":"), piece);
		}
		return event("content_block_delta", json.append("}}").toString());
	}

	private byte[] messageDelta() {
		StringBuilder json = new StringBuilder(224).append("{\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"")
			.append(AnthropicWire.stopReason(completion.finishReason()))
			.append("\",\"stop_sequence\":null},\"usage\":");
		AnthropicWire.usage(json, completion, completion.completionTokens(), false).append('}');
		return event("message_delta", json.toString());
	}

	private static byte[] event(String name, String data) {
		return ("event: " + name + "\ndata: " + data + "\n\n").getBytes(StandardCharsets.UTF_8);
	}

}
