package dev.junction.gateway.messages;

import dev.junction.gateway.chat.ChunkDelta;
import dev.junction.gateway.error.UpstreamException;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * An OpenAI chat completion as the Anthropic message that answers a Messages request:
 * text and tool calls as content blocks, the finish reason as a stop reason, and usage
 * (cached prompt tokens as {@code cache_read_input_tokens}).
 */
final class ChatToMessages {

	private final ObjectMapper mapper;

	ChatToMessages(ObjectMapper mapper) {
		this.mapper = mapper;
	}

	/** The message for a {@code chat.completion}. */
	ObjectNode message(JsonNode completion, String requestedModel, String provider) {
		JsonNode message = completion.path("choices").path(0).path("message");
		ObjectNode out = start(completion.path("id").asString(null), model(completion, requestedModel));
		ArrayNode content = out.putArray("content");
		String text = ChunkDelta.text(message.get("content"));
		if (!text.isEmpty()) {
			content.addObject().put("type", "text").put("text", text);
		}
		for (JsonNode call : message.path("tool_calls")) {
			ObjectNode block = content.addObject().put("type", "tool_use");
			block.put("id", call.path("id").asString(""));
			block.put("name", call.path("function").path("name").asString(""));
			block.set("input", input(call.path("function").path("arguments").asString(""), provider));
			block.putObject("caller").put("type", "direct");
		}
		out.put("stop_reason", stopReason(completion.path("choices").path(0).path("finish_reason").asString(null)));
		out.putNull("stop_sequence");
		usage(out.putObject("usage"), completion.get("usage"));
		return out;
	}

	/** A message with no content yet, as {@code message_start} carries it. */
	ObjectNode start(@Nullable String chatId, String model) {
		ObjectNode out = this.mapper.createObjectNode();
		out.put("id", messageId(chatId));
		out.put("type", "message");
		out.put("role", "assistant");
		out.put("model", model);
		return out;
	}

	static String model(JsonNode completion, String requestedModel) {
		String model = completion.path("model").asString(null);
		return (model != null && !model.isBlank()) ? model : requestedModel;
	}

	static String messageId(@Nullable String chatId) {
		if (chatId == null || chatId.isBlank()) {
			return "msg_" + Long.toHexString(System.nanoTime());
		}
		return chatId.startsWith("msg_") ? chatId : "msg_" + chatId.replaceFirst("^chatcmpl-", "");
	}

	/** Anthropic's stop reason for an OpenAI finish reason. */
	static String stopReason(@Nullable String finishReason) {
		if (finishReason == null) {
			return "end_turn";
		}
		return switch (finishReason) {
			case "length" -> "max_tokens";
			case "tool_calls", "function_call" -> "tool_use";
			case "content_filter" -> "refusal";
			default -> "end_turn";
		};
	}

	/** Anthropic usage from an OpenAI usage object (zeros when there is none). */
	static ObjectNode usage(ObjectNode out, @Nullable JsonNode usage) {
		long prompt = (usage != null) ? usage.path("prompt_tokens").asLong(0) : 0;
		long cached = (usage != null) ? usage.path("prompt_tokens_details").path("cached_tokens").asLong(0) : 0;
		out.put("input_tokens", Math.max(0, prompt - cached));
		out.put("cache_creation_input_tokens", 0);
		out.put("cache_read_input_tokens", cached);
		out.put("output_tokens", (usage != null) ? usage.path("completion_tokens").asLong(0) : 0);
		return out;
	}

	private JsonNode input(String arguments, String provider) {
		if (arguments.isBlank()) {
			return this.mapper.createObjectNode();
		}
		try {
			JsonNode input = this.mapper.readTree(arguments);
			if (input != null && input.isObject()) {
				return input;
			}
		}
		catch (JacksonException ex) {
			// Reported below.
		}
		throw UpstreamException.invalidResponse(provider, "the model's tool call arguments are not a JSON object");
	}

}
