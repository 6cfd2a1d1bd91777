package dev.junction.gateway.messages;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import dev.junction.gateway.chat.ChunkDelta;
import dev.junction.gateway.chat.ChunkTranslation;
import dev.junction.gateway.chat.SseEvent;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Turns the {@code chat.completion.chunk}s of one stream into the Messages event
 * sequence: {@code message_start}, {@code ping}, each content block as
 * {@code content_block_start}, deltas and {@code content_block_stop}, then
 * {@code message_delta} (stop reason, usage) and {@code message_stop}. Anthropic streams
 * one block at a time: a tool call's arguments are streamed live while its block is open,
 * and the fragments of calls that arrive interleaved with it are kept until its arguments
 * are complete, so each call's arguments arrive whole and in order. Text that arrives
 * while a tool call is open follows the tool calls. One instance per stream; not
 * thread-safe (a stream delivers its chunks one at a time).
 */
final class ChatToMessagesStream extends ChunkTranslation {

	private final ChatToMessages messages;

	private final String requestedModel;

	private final Map<Integer, ToolCall> calls = new TreeMap<>();

	private final StringBuilder pendingText = new StringBuilder();

	private boolean started;

	private int blocks;

	/** The open block's index, or -1. */
	private int openBlock = -1;

	/** The tool call whose block is open, or null when none (or a text block) is. */
	private @Nullable ToolCall openCall;

	ChatToMessagesStream(ObjectMapper mapper, ChatToMessages messages, String requestedModel) {
		super(mapper);
		this.messages = messages;
		this.requestedModel = requestedModel;
	}

	/** The events that close the message once the upstream stream has completed. */
	List<SseEvent> end() {
		this.out.clear();
		start(null);
		closeOpen();
		for (ToolCall call : this.calls.values()) {
			if (!call.opened) {
				open(call);
				closeOpen();
			}
		}
		if (this.pendingText.length() > 0) {
			String text = this.pendingText.toString();
			this.pendingText.setLength(0);
			text(text);
			closeOpen();
		}
		ObjectNode delta = this.mapper.createObjectNode().put("type", "message_delta");
		delta.putObject("delta").put("stop_reason", ChatToMessages.stopReason(finishReason())).putNull("stop_sequence");
		ChatToMessages.usage(delta.putObject("usage"), usage());
		emit("message_delta", delta);
		emit("message_stop", this.mapper.createObjectNode().put("type", "message_stop"));
		return List.copyOf(this.out);
	}

	@Override
	protected void start(@Nullable ChunkDelta chunk) {
		if (this.started) {
			return;
		}
		this.started = true;
		ObjectNode message = this.messages.start((chunk != null) ? chunk.id() : null,
				(chunk != null && chunk.model() != null) ? chunk.model() : this.requestedModel);
		message.putArray("content");
		message.putNull("stop_reason");
		message.putNull("stop_sequence");
		ChatToMessages.usage(message.putObject("usage"), null);
		ObjectNode event = this.mapper.createObjectNode().put("type", "message_start");
		event.set("message", message);
		emit("message_start", event);
		emit("ping", this.mapper.createObjectNode().put("type", "ping"));
	}

	@Override
	protected void text(String text) {
		if (this.openCall != null) {
			this.pendingText.append(text);
			return;
		}
		if (this.openBlock < 0) {
			ObjectNode block = this.mapper.createObjectNode().put("type", "text").put("text", "");
			openBlock(block);
		}
		ObjectNode delta = this.mapper.createObjectNode().put("type", "text_delta").put("text", text);
		emitDelta(delta);
	}

	@Override
	protected void tool(JsonNode fragment, int position) {
		int index = fragment.path("index").asInt(position);
		ToolCall call = this.calls.computeIfAbsent(index, (key) -> new ToolCall());
		String id = fragment.path("id").asString(null);
		if (id != null && !id.isEmpty() && call.id == null) {
			call.id = id;
		}
		JsonNode function = fragment.path("function");
		String name = function.path("name").asString(null);
		if (name != null && !name.isEmpty() && call.name == null) {
			call.name = name;
		}
		String arguments = function.path("arguments").asString(null);
		if (arguments != null) {
			call.arguments.append(arguments);
		}
		ToolCall open = this.openCall;
		if (open == call) {
			flush(call);
		}
		else if (open == null || complete(open.arguments)) {
			ToolCall waiting = firstWaiting();
			if (waiting != null) {
				closeOpen();
				open(waiting);
			}
		}
	}

	/** The waiting tool call with the lowest index, if any. */
	private @Nullable ToolCall firstWaiting() {
		for (ToolCall call : this.calls.values()) {
			if (!call.opened) {
				return call;
			}
		}
		return null;
	}

	private void open(ToolCall call) {
		call.opened = true;
		ObjectNode block = this.mapper.createObjectNode().put("type", "tool_use");
		block.put("id", (call.id != null) ? call.id : "toolu_" + Long.toHexString(System.nanoTime()));
		block.put("name", (call.name != null) ? call.name : "");
		block.putObject("input");
		block.putObject("caller").put("type", "direct");
		openBlock(block);
		this.openCall = call;
		flush(call);
	}

	/** Sends what the open tool call's arguments have gained since the last delta. */
	private void flush(ToolCall call) {
		if (call.arguments.length() > call.sent) {
			String part = call.arguments.substring(call.sent);
			call.sent = call.arguments.length();
			emitDelta(this.mapper.createObjectNode().put("type", "input_json_delta").put("partial_json", part));
		}
	}

	private boolean complete(CharSequence arguments) {
		try {
			JsonNode value = this.mapper.readTree(arguments.toString());
			return value != null && value.isObject();
		}
		catch (JacksonException ex) {
			return false;
		}
	}

	private void openBlock(ObjectNode block) {
		this.openBlock = this.blocks++;
		ObjectNode event = this.mapper.createObjectNode()
			.put("type", "content_block_start")
			.put("index", this.openBlock);
		event.set("content_block", block);
		emit("content_block_start", event);
	}

	private void emitDelta(ObjectNode delta) {
		ObjectNode event = this.mapper.createObjectNode()
			.put("type", "content_block_delta")
			.put("index", this.openBlock);
		event.set("delta", delta);
		emit("content_block_delta", event);
	}

	private void closeOpen() {
		if (this.openBlock < 0) {
			return;
		}
		emit("content_block_stop",
				this.mapper.createObjectNode().put("type", "content_block_stop").put("index", this.openBlock));
		this.openBlock = -1;
		this.openCall = null;
	}

	private void emit(String name, ObjectNode data) {
		this.out.add(new SseEvent(name, data.toString()));
	}

	/** One tool call as it arrives. */
	private static final class ToolCall {

		private @Nullable String id;

		private @Nullable String name;

		private final StringBuilder arguments = new StringBuilder();

		/** How much of the arguments has been sent. */
		private int sent;

		private boolean opened;

	}

}
