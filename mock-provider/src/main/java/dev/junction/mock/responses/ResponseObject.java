package dev.junction.mock.responses;

import dev.junction.mock.completion.Completion;
import dev.junction.mock.completion.FinishReason;
import dev.junction.mock.completion.ToolCall;
import dev.junction.mock.pipeline.JsonText;
import dev.junction.mock.pipeline.ResponseIds;

/**
 * One answer of the Responses API as JSON: the {@code response} object, whole or as it
 * stands while streamed, and its single output item, a {@code message} with one
 * {@code output_text} part or a {@code function_call}. Its ids are fixed when it is made,
 * so that every event of a stream names the same ones.
 */
final class ResponseObject {

	private final ResponsesRequest request;

	private final Completion completion;

	private final String id = ResponseIds.next("resp_");

	private final String itemId;

	private final String callId;

	private final long createdAt = System.currentTimeMillis() / 1000;

	ResponseObject(ResponsesRequest request, Completion completion) {
		this.request = request;
		this.completion = completion;
		this.itemId = ResponseIds.next(isToolCall() ? "fc_" : "msg_");
		this.callId = isToolCall() ? ResponseIds.next("call_") : null;
	}

	Completion completion() {
		return this.completion;
	}

	boolean isToolCall() {
		return this.completion.toolCall() != null;
	}

	/**
	 * Whether the answer stopped at {@code max_output_tokens}: then it is
	 * {@code incomplete}.
	 */
	boolean isIncomplete() {
		return this.completion.finishReason() == FinishReason.LENGTH;
	}

	String itemId() {
		return this.itemId;
	}

	/** The whole text of a message answer, or the arguments of a function call. */
	String fullText() {
		ToolCall call = this.completion.toolCall();
		return (call != null) ? call.arguments() : this.completion.text();
	}

	/**
	 * The finished response: {@code completed}, or {@code incomplete} with its reason.
	 */
	String finished() {
		StringBuilder json = new StringBuilder(1024);
		head(json, isIncomplete() ? "incomplete" : "completed", this.createdAt);
		json.append(isIncomplete() ? "\"incomplete_details\":{\"reason\":\"max_output_tokens\"},"
				: "\"incomplete_details\":null,");
		json.append("\"output\":[");
		item(json, true).append("],");
		tail(json);
		json.append("\"usage\":{\"input_tokens\":")
			.append(this.completion.promptTokens())
			.append(",\"input_tokens_details\":{\"cached_tokens\":0},\"output_tokens\":")
			.append(this.completion.completionTokens())
			.append(",\"output_tokens_details\":{\"reasoning_tokens\":0},\"total_tokens\":")
			.append((long) this.completion.promptTokens() + this.completion.completionTokens())
			.append("},\"user\":null,\"metadata\":{}}");
		return json.toString();
	}

	/**
	 * The response as the first events of a stream show it: {@code in_progress}, no
	 * output yet.
	 */
	String inProgress() {
		StringBuilder json = new StringBuilder(768);
		head(json, "in_progress", null);
		json.append("\"incomplete_details\":null,\"output\":[],");
		tail(json);
		return json.append("\"usage\":null,\"user\":null,\"metadata\":{}}").toString();
	}

	/**
	 * The output item, finished (with its text or arguments) or as just added (empty).
	 */
	StringBuilder item(StringBuilder json, boolean finished) {
		String status = !finished ? "in_progress" : (isIncomplete() ? "incomplete" : "completed");
		ToolCall call = this.completion.toolCall();
		if (call != null) {
			json.append("{\"id\":\"")
				.append(this.itemId)
				.append("\",\"type\":\"function_call\",\"status\":\"")
				.append(status)
				.append("\",\"arguments\":");
			JsonText.string(json, finished ? call.arguments() : "")
				.append(",\"call_id\":\"")
				.append(this.callId)
				.append("\",\"name\":");
			return JsonText.string(json, call.name()).append('}');
		}
		json.append("{\"id\":\"")
			.append(this.itemId)
			.append("\",\"type\":\"message\",\"status\":\"")
			.append(status)
			.append("\",\"role\":\"assistant\",\"content\":[");
		if (finished) {
			textPart(json, this.completion.text());
		}
		return json.append("]}");
	}

	/** An {@code output_text} content part. */
	static StringBuilder textPart(StringBuilder json, String text) {
		json.append("{\"type\":\"output_text\",\"annotations\":[],\"logprobs\":[],\"text\":");
		return JsonText.string(json, text).append('}');
	}

	private void head(StringBuilder json, String status, Long completedAt) {
		json.append("{\"id\":\"")
			.append(this.id)
			.append("\",\"object\":\"response\",\"created_at\":")
			.append(this.createdAt)
			.append(",\"status\":\"")
			.append(status)
			.append("\",\"background\":false,")
			.append("\"completed_at\":")
			.append(completedAt)
			.append(",\"error\":null,");
	}

	private void tail(StringBuilder json) {
		json.append("\"instructions\":")
			.append(this.request.instructions())
			.append(",\"max_output_tokens\":")
			.append(this.request.conversation().maxTokens())
			.append(",\"max_tool_calls\":null,\"model\":");
		JsonText.string(json, this.request.conversation().model())
			.append(",\"parallel_tool_calls\":true,\"previous_response_id\":null,")
			.append("\"reasoning\":{\"effort\":null,\"summary\":null},\"service_tier\":\"default\",\"store\":false,")
			.append("\"temperature\":1.0,\"text\":{\"format\":{\"type\":\"text\"}},\"tool_choice\":")
			.append(this.request.toolChoice())
			.append(",\"tools\":")
			.append(this.request.tools())
			.append(",\"top_p\":1.0,\"truncation\":\"disabled\",");
	}

}
