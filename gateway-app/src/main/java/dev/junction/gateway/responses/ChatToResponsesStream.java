package dev.junction.gateway.responses;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import dev.junction.gateway.chat.ChunkDelta;
import dev.junction.gateway.chat.ChunkTranslation;
import dev.junction.gateway.chat.SseEvent;
import dev.junction.gateway.error.GatewayException;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Turns the {@code chat.completion.chunk}s of one stream into the Responses event
 * sequence: {@code response.created}, {@code response.in_progress}, then for the text a
 * {@code message} item ({@code output_item.added}, {@code content_part.added},
 * {@code output_text.delta}s) and for each tool call a {@code function_call} item
 * ({@code output_item.added}, {@code function_call_arguments.delta}s), each item closed
 * with its {@code .done} events when the stream ends, and {@code response.completed} (or
 * {@code response.incomplete}) with the whole response. Every event carries its
 * {@code sequence_number}; items carry their {@code output_index}, so parallel tool calls
 * may interleave. One instance per stream.
 */
final class ChatToResponsesStream extends ChunkTranslation {

	private final ChatToResponses responses;

	private final JsonNode request;

	private final String requestedModel;

	private final List<Item> items = new ArrayList<>();

	private final Map<Integer, Item> calls = new TreeMap<>();

	private @Nullable ObjectNode response;

	private @Nullable Item text;

	private @Nullable String chatId;

	private int sequence;

	ChatToResponsesStream(ObjectMapper mapper, ChatToResponses responses, JsonNode request, String requestedModel) {
		super(mapper);
		this.responses = responses;
		this.request = request;
		this.requestedModel = requestedModel;
	}

	/**
	 * The events that close every item and the response once the upstream stream has
	 * completed.
	 */
	List<SseEvent> end() {
		this.out.clear();
		start(null);
		ObjectNode response = this.response;
		ArrayNode output = response.putArray("output");
		for (Item item : this.items) {
			ObjectNode done = item.done();
			output.add(done);
		}
		this.responses.finish(response, finishReason(), usage());
		String type = "completed".equals(response.path("status").asString()) ? "response.completed"
				: "response.incomplete";
		ObjectNode event = event(type);
		event.set("response", response);
		emit(event);
		return List.copyOf(this.out);
	}

	@Override
	protected void start(@Nullable ChunkDelta chunk) {
		if (this.response != null) {
			return;
		}
		this.chatId = (chunk != null) ? chunk.id() : null;
		String model = (chunk != null && chunk.model() != null) ? chunk.model() : this.requestedModel;
		this.response = this.responses.shell(this.request, ChatToResponses.id("resp_", this.chatId), model);
		for (String type : new String[] { "response.created", "response.in_progress" }) {
			ObjectNode event = event(type);
			event.set("response", this.response.deepCopy());
			emit(event);
		}
	}

	@Override
	protected void text(String delta) {
		Item item = this.text;
		if (item == null) {
			item = new Item(this.items.size(), ChatToResponses.id("msg_", this.chatId), null);
			this.items.add(item);
			this.text = item;
			added(item, this.responses.message(item.id, null, "in_progress"));
			ObjectNode part = event("response.content_part.added");
			part.put("item_id", item.id).put("output_index", item.index).put("content_index", 0);
			part.set("part", this.responses.outputText(""));
			emit(part);
		}
		item.content.append(delta);
		ObjectNode event = event("response.output_text.delta");
		event.put("item_id", item.id).put("output_index", item.index).put("content_index", 0).put("delta", delta);
		event.putArray("logprobs");
		emit(event);
	}

	@Override
	protected void tool(JsonNode fragment, int position) {
		int index = fragment.path("index").asInt(position);
		Item item = this.calls.get(index);
		JsonNode function = fragment.path("function");
		if (item == null) {
			String callId = fragment.path("id").asString("call_" + index);
			item = new Item(this.items.size(), ChatToResponses.id("fc_", this.chatId) + "_" + index,
					new String[] { callId, function.path("name").asString("") });
			this.items.add(item);
			this.calls.put(index, item);
			added(item, this.responses.functionCall(item.id, item.call[0], item.call[1], "", "in_progress"));
		}
		String arguments = function.path("arguments").asString("");
		if (!arguments.isEmpty()) {
			item.content.append(arguments);
			ObjectNode event = event("response.function_call_arguments.delta");
			event.put("item_id", item.id).put("output_index", item.index).put("delta", arguments);
			emit(event);
		}
	}

	private void added(Item item, ObjectNode json) {
		ObjectNode event = event("response.output_item.added");
		event.put("output_index", item.index);
		event.set("item", json);
		emit(event);
	}

	/**
	 * Numbers the events from here on from {@code sequence}, after events sent by someone
	 * else.
	 */
	void numberFrom(int sequence) {
		this.sequence = sequence;
	}

	/**
	 * The {@code error} event that ends a stream whose upstream failed, numbered after
	 * the events sent.
	 */
	SseEvent error(GatewayException failure) {
		ObjectNode event = event("error");
		event.put("code", (failure.code() != null) ? failure.code() : failure.type());
		event.put("message", failure.getMessage());
		if (failure.param() != null) {
			event.put("param", failure.param());
		}
		else {
			event.putNull("param");
		}
		event.put("sequence_number", this.sequence++);
		return new SseEvent("error", event.toString());
	}

	private ObjectNode event(String type) {
		return this.mapper.createObjectNode().put("type", type);
	}

	private void emit(ObjectNode event) {
		event.put("sequence_number", this.sequence++);
		this.out.add(new SseEvent(event.path("type").asString(), event.toString()));
	}

	/** One output item as it arrives. */
	private final class Item {

		private final int index;

		private final String id;

		/** The call id and name of a function call; null for the message. */
		private final String @Nullable [] call;

		private final StringBuilder content = new StringBuilder();

		Item(int index, String id, String @Nullable [] call) {
			this.index = index;
			this.id = id;
			this.call = call;
		}

		/** Emits the item's closing events; returns the finished item. */
		ObjectNode done() {
			String content = this.content.toString();
			ObjectNode item;
			if (this.call == null) {
				ObjectNode text = event("response.output_text.done");
				text.put("item_id", this.id)
					.put("output_index", this.index)
					.put("content_index", 0)
					.put("text", content);
				text.putArray("logprobs");
				emit(text);
				ObjectNode part = event("response.content_part.done");
				part.put("item_id", this.id).put("output_index", this.index).put("content_index", 0);
				part.set("part", ChatToResponsesStream.this.responses.outputText(content));
				emit(part);
				item = ChatToResponsesStream.this.responses.message(this.id, content, "completed");
			}
			else {
				ObjectNode arguments = event("response.function_call_arguments.done");
				arguments.put("item_id", this.id)
					.put("output_index", this.index)
					.put("name", this.call[1])
					.put("arguments", content);
				emit(arguments);
				item = ChatToResponsesStream.this.responses.functionCall(this.id, this.call[0], this.call[1], content,
						"completed");
			}
			ObjectNode event = event("response.output_item.done");
			event.put("output_index", this.index);
			event.set("item", item);
			emit(event);
			return item;
		}

	}

}
