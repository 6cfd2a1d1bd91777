package dev.junction.gateway.responses;

import java.time.Instant;

import dev.junction.gateway.chat.ChunkDelta;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * OpenAI chat completions as the {@code response} objects and output items of the
 * Responses API: text as a {@code message} item with {@code output_text}, tool calls as
 * {@code function_call} items, a length or content-filter finish as an {@code incomplete}
 * response, and usage in the Responses terms. The request's settings are echoed as the
 * API does.
 */
final class ChatToResponses {

	private final ObjectMapper mapper;

	ChatToResponses(ObjectMapper mapper) {
		this.mapper = mapper;
	}

	/** The complete response for a {@code chat.completion}. */
	ObjectNode response(JsonNode completion, JsonNode request, String requestedModel) {
		JsonNode choice = completion.path("choices").path(0);
		JsonNode message = choice.path("message");
		String chatId = completion.path("id").asString(null);
		ObjectNode response = shell(request, id("resp_", chatId), model(completion, requestedModel));
		ArrayNode output = response.putArray("output");
		String text = ChunkDelta.text(message.get("content"));
		if (!text.isEmpty()) {
			output.add(message(id("msg_", chatId), text, "completed"));
		}
		int n = 0;
		for (JsonNode call : message.path("tool_calls")) {
			output.add(functionCall(id("fc_", chatId) + "_" + n++, call.path("id").asString(""),
					call.path("function").path("name").asString(""),
					call.path("function").path("arguments").asString(""), "completed"));
		}
		finish(response, choice.path("finish_reason").asString(null), completion.get("usage"));
		return response;
	}

	/** A response with the request's settings and no output yet, {@code in_progress}. */
	ObjectNode shell(JsonNode request, String id, String model) {
		ObjectNode response = this.mapper.createObjectNode();
		response.put("id", id);
		response.put("object", "response");
		response.put("created_at", Instant.now().getEpochSecond());
		response.put("status", "in_progress");
		response.put("background", false);
		response.putNull("error");
		response.putNull("incomplete_details");
		echo(request, "instructions", response, null);
		echo(request, "max_output_tokens", response, null);
		response.put("model", model);
		response.putArray("output");
		response.put("parallel_tool_calls", request.path("parallel_tool_calls").asBoolean(true));
		response.putNull("previous_response_id");
		ObjectNode reasoning = response.putObject("reasoning");
		reasoning.set("effort", request.path("reasoning").path("effort").isString()
				? request.path("reasoning").get("effort") : this.mapper.nullNode());
		reasoning.putNull("summary");
		response.put("store", false);
		echo(request, "temperature", response, 1.0);
		if (request.path("text").isObject()) {
			response.set("text", request.get("text"));
		}
		else {
			response.putObject("text").putObject("format").put("type", "text");
		}
		if (request.hasNonNull("tool_choice")) {
			response.set("tool_choice", request.get("tool_choice"));
		}
		else {
			response.put("tool_choice", "auto");
		}
		response.set("tools", request.path("tools").isArray() ? request.get("tools") : this.mapper.createArrayNode());
		echo(request, "top_p", response, 1.0);
		response.put("truncation", "disabled");
		response.putNull("usage");
		response.putNull("user");
		response.set("metadata",
				request.path("metadata").isObject() ? request.get("metadata") : this.mapper.createObjectNode());
		return response;
	}

	/** Marks a response completed or incomplete by the finish reason, with its usage. */
	void finish(ObjectNode response, @Nullable String finishReason, @Nullable JsonNode usage) {
		if ("length".equals(finishReason) || "content_filter".equals(finishReason)) {
			response.put("status", "incomplete");
			response.putObject("incomplete_details")
				.put("reason", "length".equals(finishReason) ? "max_output_tokens" : "content_filter");
		}
		else {
			response.put("status", "completed");
		}
		long prompt = (usage != null) ? usage.path("prompt_tokens").asLong(0) : 0;
		long completion = (usage != null) ? usage.path("completion_tokens").asLong(0) : 0;
		ObjectNode out = response.putObject("usage");
		out.put("input_tokens", prompt);
		out.putObject("input_tokens_details")
			.put("cached_tokens",
					(usage != null) ? usage.path("prompt_tokens_details").path("cached_tokens").asLong(0) : 0);
		out.put("output_tokens", completion);
		out.putObject("output_tokens_details")
			.put("reasoning_tokens",
					(usage != null) ? usage.path("completion_tokens_details").path("reasoning_tokens").asLong(0) : 0);
		out.put("total_tokens", prompt + completion);
	}

	ObjectNode message(String id, @Nullable String text, String status) {
		ObjectNode item = this.mapper.createObjectNode();
		item.put("type", "message");
		item.put("id", id);
		item.put("status", status);
		item.put("role", "assistant");
		ArrayNode content = item.putArray("content");
		if (text != null) {
			content.add(outputText(text));
		}
		return item;
	}

	ObjectNode outputText(String text) {
		ObjectNode part = this.mapper.createObjectNode().put("type", "output_text").put("text", text);
		part.putArray("annotations");
		part.putArray("logprobs");
		return part;
	}

	ObjectNode functionCall(String id, String callId, String name, String arguments, String status) {
		return this.mapper.createObjectNode()
			.put("type", "function_call")
			.put("id", id)
			.put("call_id", callId)
			.put("name", name)
			.put("arguments", arguments)
			.put("status", status);
	}

	static String model(JsonNode completion, String requestedModel) {
		String model = completion.path("model").asString(null);
		return (model != null && !model.isBlank()) ? model : requestedModel;
	}

	static String id(String prefix, @Nullable String chatId) {
		String suffix = (chatId == null || chatId.isBlank()) ? Long.toHexString(System.nanoTime())
				: chatId.replaceFirst("^chatcmpl-", "");
		return prefix + suffix;
	}

	private static void echo(JsonNode request, String field, ObjectNode response, @Nullable Double otherwise) {
		JsonNode value = request.get(field);
		if (value != null && !value.isNull()) {
			response.set(field, value);
		}
		else if (otherwise != null) {
			response.put(field, otherwise);
		}
		else {
			response.putNull(field);
		}
	}

}
