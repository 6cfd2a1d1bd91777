package dev.junction.mock.openai;

import java.nio.charset.StandardCharsets;

import dev.junction.mock.completion.Completion;
import dev.junction.mock.completion.Conversation;
import dev.junction.mock.completion.ToolCall;
import dev.junction.mock.pipeline.JsonText;
import dev.junction.mock.pipeline.ResponseIds;
import dev.junction.mock.pipeline.SseStream;

/**
 * A stream of {@code chat.completion.chunk} events: the role, one chunk per piece
 * (content, or tool call arguments after a first chunk naming the call), the finish
 * reason, the usage chunk when {@code stream_options.include_usage} is set, then
 * {@code data: [DONE]}.
 */
final class OpenAiChatStream implements SseStream {

	private static final byte[] DONE = "data: [DONE]\n\n".getBytes(StandardCharsets.UTF_8);

	private final Completion completion;

	private final boolean includeUsage;

	/**
	 * Everything of a chunk before its choices, the same for every chunk of the stream.
	 */
	private final String head;

	/** Everything of a chunk after its choices. */
	private final String tail;

	OpenAiChatStream(Conversation conversation, Completion completion) {
		this.completion = completion;
		this.includeUsage = conversation.includeUsage();
		StringBuilder head = new StringBuilder(192).append("data: {\"id\":\"")
			.append(ResponseIds.next("chatcmpl-"))
			.append("\",\"object\":\"chat.completion.chunk\",\"created\":")
			.append(OpenAiWire.now())
			.append(",\"model\":");
		JsonText.string(head, conversation.model())
			.append(",\"service_tier\":\"default\",\"system_fingerprint\":\"")
			.append(OpenAiWire.SYSTEM_FINGERPRINT)
			.append("\",\"choices\":[");
		this.head = head.toString();
		this.tail = includeUsage ? "],\"usage\":null}\n\n" : "]}\n\n";
	}

	@Override
	public int size() {
		return completion.pieces().size() + (includeUsage ? 4 : 3);
	}

	@Override
	public byte[] event(int index) {
		int pieces = completion.pieces().size();
		if (index == size() - 1) {
			return DONE;
		}
		if (index == pieces + 2) {
			StringBuilder json = new StringBuilder(head).append("],\"usage\":");
			return OpenAiWire.usage(json, completion).append("}\n\n").toString().getBytes(StandardCharsets.UTF_8);
		}
		StringBuilder json = new StringBuilder(head.length() + 160).append(head).append("{\"index\":0,\"delta\":");
		String finish = "null";
		if (index == 0) {
			first(json);
		}
		else if (index <= pieces) {
			piece(json, completion.pieces().get(index - 1));
		}
		else {
			json.append("{}");
			finish = "\"" + OpenAiWire.finishReason(completion.finishReason()) + "\"";
		}
		json.append(",\"logprobs\":null,\"finish_reason\":").append(finish).append('}').append(tail);
		return json.toString().getBytes(StandardCharsets.UTF_8);
	}

	private void first(StringBuilder json) {
		ToolCall call = completion.toolCall();
		if (call == null) {
			json.append("{\"role\":\"assistant\",\"content\":\"\",\"refusal\":null}");
			return;
		}
		json.append("{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[{\"index\":0,\"id\":\"")
			.append(ResponseIds.next("call_"))
			.append("\",\"type\":\"function\",\"function\":{\"name\":");
		JsonText.string(json, call.name()).append(",\"arguments\":\"\"}}],\"refusal\":null}");
	}

	private void piece(StringBuilder json, String piece) {
		if (completion.toolCall() == null) {
			JsonText.string(json.append("{\"content\":"), piece).append('}');
			return;
		}
		json.append("{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":");
		JsonText.string(json, piece).append("}}]}");
	}

}
