package dev.junction.mock.openai;

import java.nio.charset.StandardCharsets;
import java.util.List;

import dev.junction.mock.completion.Completion;
import dev.junction.mock.completion.Conversation;
import dev.junction.mock.pipeline.ResponseIds;
import dev.junction.mock.pipeline.SseStream;
import dev.junction.openai.ChatCompletionChunk;
import dev.junction.openai.ChatCompletionChunk.Delta;
import dev.junction.openai.ToolCall;

/**
 * A stream of {@code chat.completion.chunk} events: the role, one chunk per piece
 * (content, or tool call arguments after a first chunk naming the call), the finish
 * reason, the usage chunk when {@code stream_options.include_usage} is set, then
 * {@code data: [DONE]}.
 */
final class OpenAiChatStream implements SseStream {

	private static final byte[] DATA = "data: ".getBytes(StandardCharsets.UTF_8);

	private static final byte[] DONE = "data: [DONE]\n\n".getBytes(StandardCharsets.UTF_8);

	private final Completion completion;

	private final boolean includeUsage;

	/** What every chunk of the stream shares. */
	private final ChatCompletionChunk.Head head;

	OpenAiChatStream(Conversation conversation, Completion completion) {
		this.completion = completion;
		this.includeUsage = conversation.includeUsage();
		this.head = new ChatCompletionChunk.Head(ResponseIds.next("chatcmpl-"), OpenAiWire.now(), conversation.model(),
				OpenAiWire.SERVICE_TIER, OpenAiWire.SYSTEM_FINGERPRINT, this.includeUsage);
	}

	@Override
	public int size() {
		return this.completion.pieces().size() + (this.includeUsage ? 4 : 3);
	}

	@Override
	public byte[] event(int index) {
		int pieces = this.completion.pieces().size();
		if (index == size() - 1) {
			return DONE;
		}
		if (index == pieces + 2) {
			return data(ChatCompletionChunk.usage(this.head, OpenAiWire.usage(this.completion)));
		}
		String finish = null;
		Delta delta;
		if (index == 0) {
			delta = first();
		}
		else if (index <= pieces) {
			delta = piece(this.completion.pieces().get(index - 1));
		}
		else {
			delta = Delta.END;
			finish = OpenAiWire.finishReason(this.completion.finishReason());
		}
		return data(ChatCompletionChunk.of(this.head, new ChatCompletionChunk.Choice(0, delta, finish)));
	}

	private Delta first() {
		dev.junction.mock.completion.ToolCall call = this.completion.toolCall();
		if (call == null) {
			return Delta.START;
		}
		return new Delta("assistant", null, List.of(ToolCall.first(0, ResponseIds.next("call_"), call.name(), "")));
	}

	private Delta piece(String piece) {
		if (this.completion.toolCall() == null) {
			return Delta.content(piece);
		}
		return Delta.toolCalls(List.of(ToolCall.arguments(0, piece)));
	}

	private static byte[] data(ChatCompletionChunk chunk) {
		byte[] json = OpenAiWire.JSON.writeValueAsBytes(chunk);
		byte[] event = new byte[json.length + 8];
		System.arraycopy(DATA, 0, event, 0, DATA.length);
		System.arraycopy(json, 0, event, DATA.length, json.length);
		event[event.length - 2] = '\n';
		event[event.length - 1] = '\n';
		return event;
	}

}
