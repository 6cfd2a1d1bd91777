package dev.junction.mock.responses;

import java.nio.charset.StandardCharsets;
import java.util.List;

import dev.junction.mock.completion.ToolCall;
import dev.junction.mock.pipeline.JsonText;
import dev.junction.mock.pipeline.SseStream;

/**
 * The streamed events of a response, each {@code event: <type>} with a
 * {@code sequence_number}: {@code response.created}, {@code response.in_progress},
 * {@code response.output_item.added}, then for a message
 * {@code response.content_part.added}, one {@code response.output_text.delta} per piece,
 * {@code response.output_text.done} and {@code response.content_part.done}, or for a
 * function call one {@code response.function_call_arguments.delta} per piece and
 * {@code response.function_call_arguments.done}; then {@code response.output_item.done}
 * and {@code response.completed} ({@code response.incomplete} when
 * {@code max_output_tokens} cut the answer). There is no {@code [DONE]}.
 */
final class ResponsesStream implements SseStream {

	private final ResponseObject response;

	private final List<String> pieces;

	/** Events before the first delta. */
	private final int lead;

	ResponsesStream(ResponseObject response) {
		this.response = response;
		this.pieces = response.completion().pieces();
		this.lead = response.isToolCall() ? 3 : 4;
	}

	@Override
	public int size() {
		return this.lead + this.pieces.size() + (this.response.isToolCall() ? 3 : 4);
	}

	@Override
	public byte[] event(int index) {
		if (index == 0) {
			return event("response.created", index, "\"response\":" + this.response.inProgress());
		}
		if (index == 1) {
			return event("response.in_progress", index, "\"response\":" + this.response.inProgress());
		}
		if (index == 2) {
			return event("response.output_item.added", index,
					this.response.item(new StringBuilder("\"output_index\":0,\"item\":"), false).toString());
		}
		if (index == 3 && !this.response.isToolCall()) {
			return event("response.content_part.added", index,
					partHead().append(",\"part\":").append(partJson("")).toString());
		}
		int piece = index - this.lead;
		if (piece < this.pieces.size()) {
			return delta(index, this.pieces.get(piece));
		}
		int after = piece - this.pieces.size();
		if (this.response.isToolCall()) {
			return switch (after) {
				case 0 -> argumentsDone(index);
				case 1 -> itemDone(index);
				default -> finished(index);
			};
		}
		return switch (after) {
			case 0 -> event("response.output_text.done", index,
					JsonText.string(partHead().append(",\"logprobs\":[],\"text\":"), this.response.fullText())
						.toString());
			case 1 -> event("response.content_part.done", index,
					partHead().append(",\"part\":").append(partJson(this.response.fullText())).toString());
			case 2 -> itemDone(index);
			default -> finished(index);
		};
	}

	private byte[] delta(int index, String piece) {
		if (this.response.isToolCall()) {
			StringBuilder json = itemHead().append(",\"delta\":");
			return event("response.function_call_arguments.delta", index, JsonText.string(json, piece).toString());
		}
		StringBuilder json = partHead().append(",\"delta\":");
		return event("response.output_text.delta", index,
				JsonText.string(json, piece).append(",\"logprobs\":[]").toString());
	}

	private byte[] argumentsDone(int index) {
		ToolCall call = this.response.completion().toolCall();
		StringBuilder json = JsonText.string(itemHead().append(",\"name\":"), call.name()).append(",\"arguments\":");
		return event("response.function_call_arguments.done", index,
				JsonText.string(json, call.arguments()).toString());
	}

	private byte[] itemDone(int index) {
		return event("response.output_item.done", index,
				this.response.item(new StringBuilder("\"output_index\":0,\"item\":"), true).toString());
	}

	private byte[] finished(int index) {
		String type = this.response.isIncomplete() ? "response.incomplete" : "response.completed";
		return event(type, index, "\"response\":" + this.response.finished());
	}

	private StringBuilder itemHead() {
		return new StringBuilder(160).append("\"item_id\":\"")
			.append(this.response.itemId())
			.append("\",\"output_index\":0");
	}

	private StringBuilder partHead() {
		return itemHead().append(",\"content_index\":0");
	}

	private static String partJson(String text) {
		return ResponseObject.textPart(new StringBuilder(64), text).toString();
	}

	private static byte[] event(String type, int sequence, String fields) {
		return ("event: " + type + "\ndata: {\"type\":\"" + type + "\",\"sequence_number\":" + sequence + "," + fields
				+ "}\n\n")
			.getBytes(StandardCharsets.UTF_8);
	}

}
