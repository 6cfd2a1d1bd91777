package dev.junction.gateway.messages;

import java.util.ArrayList;
import java.util.List;

import dev.junction.gateway.chat.SseEvent;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/** Chat completion chunks turned into the Messages event stream, chunk by chunk. */
class ChatToMessagesStreamTests {

	private final ObjectMapper mapper = JsonMapper.builder().build();

	private final ChatToMessagesStream stream = new ChatToMessagesStream(this.mapper, new ChatToMessages(this.mapper),
			"emulator/gpt-4o-mini");

	@Test
	void startsTheMessageOnTheFirstChunkAndStreamsTextAsItArrives() {
		List<SseEvent> first = this.stream.next(
				"{\"id\":\"chatcmpl-1\",\"model\":\"gpt-4o-mini\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"Hel\"}}]}");
		assertThat(names(first)).containsExactly("message_start", "ping", "content_block_start", "content_block_delta");
		JsonNode start = json(first.get(0)).path("message");
		assertThat(start.path("id").asString()).isEqualTo("msg_1");
		assertThat(start.path("model").asString()).isEqualTo("gpt-4o-mini");
		assertThat(json(first.get(2)).path("content_block").path("type").asString()).isEqualTo("text");
		assertThat(json(first.get(3)).path("delta").path("text").asString()).isEqualTo("Hel");

		List<SseEvent> second = this.stream.next(chunk("{\"content\":\"lo\"}", null));
		assertThat(names(second)).containsExactly("content_block_delta");
		assertThat(json(second.get(0)).path("delta").path("type").asString()).isEqualTo("text_delta");
		assertThat(json(second.get(0)).path("index").asInt()).isZero();

		this.stream.next(chunk("{}", "length"));
		this.stream.next("{\"choices\":[],\"usage\":{\"prompt_tokens\":12,\"completion_tokens\":5,"
				+ "\"prompt_tokens_details\":{\"cached_tokens\":2}}}");
		List<SseEvent> end = this.stream.end();
		assertThat(names(end)).containsExactly("content_block_stop", "message_delta", "message_stop");
		JsonNode delta = json(end.get(1));
		assertThat(delta.path("delta").path("stop_reason").asString()).isEqualTo("max_tokens");
		assertThat(delta.path("usage").path("input_tokens").asLong()).isEqualTo(10);
		assertThat(delta.path("usage").path("cache_read_input_tokens").asLong()).isEqualTo(2);
		assertThat(delta.path("usage").path("output_tokens").asLong()).isEqualTo(5);
	}

	@Test
	void streamsToolCallArgumentsSplitAcrossChunksWholeAndInOrder() {
		List<SseEvent> events = new ArrayList<>();
		events.addAll(this.stream.next(chunk("{\"content\":\"Let me look.\"}", null)));
		events.addAll(this.stream.next(chunk("{\"tool_calls\":[{\"index\":0,\"id\":\"call_a\",\"type\":\"function\","
				+ "\"function\":{\"name\":\"get_weather\",\"arguments\":\"\"}}]}", null)));
		for (String piece : new String[] { "{\"ci", "ty\":", "\"Par", "is\"}" }) {
			events.addAll(this.stream.next(chunk("{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":"
					+ this.mapper.writeValueAsString(piece) + "}}]}", null)));
		}
		events.addAll(this.stream.next(chunk("{\"tool_calls\":[{\"index\":1,\"id\":\"call_b\",\"function\":"
				+ "{\"name\":\"get_time\",\"arguments\":\"{\\\"tz\\\":\"}}]}", null)));
		events.addAll(this.stream.next(
				chunk("{\"tool_calls\":[{\"index\":1,\"function\":{\"arguments\":\"\\\"CET\\\"}\"}}]}", "tool_calls")));
		events.addAll(this.stream.end());

		assertThat(names(events)).containsExactly("message_start", "ping", "content_block_start", "content_block_delta",
				"content_block_stop", "content_block_start", "content_block_delta", "content_block_delta",
				"content_block_delta", "content_block_delta", "content_block_stop", "content_block_start",
				"content_block_delta", "content_block_delta", "content_block_stop", "message_delta", "message_stop");
		assertThat(toolInputs(events)).containsExactly("call_a get_weather {\"city\":\"Paris\"}",
				"call_b get_time {\"tz\":\"CET\"}");
		assertThat(json(events.get(15)).path("delta").path("stop_reason").asString()).isEqualTo("tool_use");
	}

	@Test
	void keepsInterleavedToolCallsApartUntilTheOpenOneIsComplete() {
		List<SseEvent> events = new ArrayList<>();
		events.addAll(this.stream.next(chunk("{\"tool_calls\":[{\"index\":0,\"id\":\"call_a\",\"function\":"
				+ "{\"name\":\"f\",\"arguments\":\"{\\\"a\\\":\"}},{\"index\":1,\"id\":\"call_b\",\"function\":"
				+ "{\"name\":\"g\",\"arguments\":\"{\\\"b\\\":\"}}]}", null)));
		events.addAll(
				this.stream.next(chunk("{\"tool_calls\":[{\"index\":1,\"function\":{\"arguments\":\"2}\"}}]}", null)));
		events.addAll(
				this.stream.next(chunk("{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"1}\"}}]}", null)));
		events.addAll(this.stream.next(chunk("{\"content\":\"done\"}", "tool_calls")));
		events.addAll(this.stream.end());
		assertThat(toolInputs(events)).containsExactly("call_a f {\"a\":1}", "call_b g {\"b\":2}");
		assertBlocksOneAtATime(events);
		assertThat(events.stream()
			.filter((event) -> event.name().equals("content_block_delta"))
			.map((event) -> json(event).path("delta").path("text").asString(""))
			.filter((text) -> !text.isEmpty())).containsExactly("done");
	}

	@Test
	void closesAnEmptyAnswerAsACompleteMessage() {
		List<SseEvent> events = this.stream.end();
		assertThat(names(events)).containsExactly("message_start", "ping", "message_delta", "message_stop");
		assertThat(json(events.get(2)).path("delta").path("stop_reason").asString()).isEqualTo("end_turn");
	}

	/**
	 * Each tool_use block as "id name input", the input joined from its deltas in order.
	 */
	private List<String> toolInputs(List<SseEvent> events) {
		List<String> tools = new ArrayList<>();
		StringBuilder input = null;
		String head = null;
		for (SseEvent event : events) {
			JsonNode data = json(event);
			if (event.name().equals("content_block_start")
					&& data.path("content_block").path("type").asString().equals("tool_use")) {
				head = data.path("content_block").path("id").asString() + " "
						+ data.path("content_block").path("name").asString();
				input = new StringBuilder();
			}
			else if (event.name().equals("content_block_delta") && input != null) {
				input.append(data.path("delta").path("partial_json").asString());
			}
			else if (event.name().equals("content_block_stop") && input != null) {
				tools.add(head + " " + this.mapper.readTree(input.toString()));
				input = null;
			}
		}
		return tools;
	}

	private void assertBlocksOneAtATime(List<SseEvent> events) {
		int open = -1;
		int next = 0;
		for (SseEvent event : events) {
			JsonNode data = json(event);
			switch (event.name()) {
				case "content_block_start" -> {
					assertThat(open).as("a block starts while another is open").isEqualTo(-1);
					assertThat(data.path("index").asInt()).isEqualTo(next++);
					open = data.path("index").asInt();
				}
				case "content_block_delta" -> assertThat(data.path("index").asInt()).isEqualTo(open);
				case "content_block_stop" -> {
					assertThat(data.path("index").asInt()).isEqualTo(open);
					open = -1;
				}
				default -> {
				}
			}
		}
		assertThat(open).isEqualTo(-1);
	}

	private static String chunk(String delta, String finishReason) {
		return "{\"id\":\"chatcmpl-1\",\"choices\":[{\"index\":0,\"delta\":" + delta + ",\"finish_reason\":"
				+ ((finishReason != null) ? "\"" + finishReason + "\"" : "null") + "}]}";
	}

	private JsonNode json(SseEvent event) {
		JsonNode data = this.mapper.readTree(event.json());
		assertThat(data.path("type").asString()).isEqualTo(event.name());
		return data;
	}

	private static List<String> names(List<SseEvent> events) {
		return events.stream().map(SseEvent::name).toList();
	}

}
