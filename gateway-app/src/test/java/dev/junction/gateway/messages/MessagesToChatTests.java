package dev.junction.gateway.messages;

import dev.junction.gateway.error.InvalidRequestException;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/** Anthropic Messages requests in the terms of a chat completion. */
class MessagesToChatTests {

	private final ObjectMapper mapper = JsonMapper.builder().build();

	private final MessagesToChat toChat = new MessagesToChat(this.mapper);

	@Test
	void translatesSystemToolsToolCallsToolResultsAndImages() {
		JsonNode chat = translate("{\"model\":\"m\",\"max_tokens\":100,\"system\":[{\"type\":\"text\",\"text\":\"A\"},"
				+ "{\"type\":\"text\",\"text\":\"B\",\"cache_control\":{\"type\":\"ephemeral\"}}],\"temperature\":0.2,"
				+ "\"stop_sequences\":[\"END\"],\"metadata\":{\"user_id\":\"u1\"},\"stream\":true,"
				+ "\"messages\":[{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"look\"},"
				+ "{\"type\":\"image\",\"source\":{\"type\":\"base64\",\"media_type\":\"image/jpeg\",\"data\":\"AAAA\"}}]},"
				+ "{\"role\":\"assistant\",\"content\":[{\"type\":\"thinking\",\"thinking\":\"hm\",\"signature\":\"s\"},"
				+ "{\"type\":\"text\",\"text\":\"calling\"},{\"type\":\"tool_use\",\"id\":\"t1\",\"name\":\"f\","
				+ "\"input\":{\"x\":1}}]},{\"role\":\"user\",\"content\":[{\"type\":\"tool_result\",\"tool_use_id\":\"t1\","
				+ "\"content\":\"42\"},{\"type\":\"text\",\"text\":\"and?\"}]}],"
				+ "\"tools\":[{\"name\":\"f\",\"description\":\"d\",\"input_schema\":{\"type\":\"object\"}}],"
				+ "\"tool_choice\":{\"type\":\"any\",\"disable_parallel_tool_use\":true}}");
		JsonNode messages = chat.path("messages");
		assertThat(messages.path(0).path("role").asString()).isEqualTo("system");
		assertThat(messages.path(0).path("content").asString()).isEqualTo("A\nB");
		assertThat(messages.path(1).path("content").path(1).path("image_url").path("url").asString())
			.isEqualTo("data:image/jpeg;base64,AAAA");
		JsonNode assistant = messages.path(2);
		assertThat(assistant.path("content").asString()).isEqualTo("calling");
		assertThat(assistant.path("tool_calls").path(0).path("function").path("arguments").asString())
			.isEqualTo("{\"x\":1}");
		assertThat(messages.path(3).path("role").asString()).isEqualTo("tool");
		assertThat(messages.path(3).path("tool_call_id").asString()).isEqualTo("t1");
		assertThat(messages.path(3).path("content").asString()).isEqualTo("42");
		assertThat(messages.path(4).path("content").path(0).path("text").asString()).isEqualTo("and?");
		assertThat(messages.size()).isEqualTo(5);
		assertThat(chat.path("tools").path(0).path("function").path("parameters").path("type").asString())
			.isEqualTo("object");
		assertThat(chat.path("tool_choice").asString()).isEqualTo("required");
		assertThat(chat.path("parallel_tool_calls").asBoolean(true)).isFalse();
		assertThat(chat.path("max_tokens").asInt()).isEqualTo(100);
		assertThat(chat.path("stop").path(0).asString()).isEqualTo("END");
		assertThat(chat.path("user").asString()).isEqualTo("u1");
		assertThat(chat.path("stream_options").path("include_usage").asBoolean()).isTrue();
	}

	@Test
	void namesAToolChoiceAsAFunction() {
		JsonNode chat = translate(
				"{\"model\":\"m\",\"max_tokens\":1,\"messages\":[{\"role\":\"user\",\"content\":\"x\"}],"
						+ "\"tools\":[{\"name\":\"g\",\"input_schema\":{\"type\":\"object\"}}],\"tool_choice\":{\"type\":\"tool\",\"name\":\"g\"}}");
		assertThat(chat.path("tool_choice").path("function").path("name").asString()).isEqualTo("g");
	}

	@Test
	void refusesWhatAChatCompletionCannotSay() {
		assertThatExceptionOfType(InvalidRequestException.class)
			.isThrownBy(() -> translate("{\"model\":\"m\","
					+ "\"max_tokens\":1,\"messages\":[{\"role\":\"user\",\"content\":\"x\"}],\"tools\":[{\"type\":"
					+ "\"web_search_20250305\",\"name\":\"web_search\"}]}"))
			.satisfies((error) -> assertThat(error.param()).isEqualTo("tools.0.type"));
		assertThatExceptionOfType(InvalidRequestException.class).isThrownBy(() -> translate("{\"model\":\"m\","
				+ "\"max_tokens\":1,\"messages\":[{\"role\":\"user\",\"content\":[{\"type\":\"search_result\"}]}]}"))
			.satisfies((error) -> assertThat(error.param()).isEqualTo("messages.0.content.0.type"));
	}

	@Test
	void validatesWhatEveryRequestNeeds() {
		assertThatExceptionOfType(InvalidRequestException.class)
			.isThrownBy(() -> MessagesToChat
				.validate(json("{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}"), true))
			.satisfies((error) -> assertThat(error.param()).isEqualTo("max_tokens"));
		MessagesToChat.validate(json("{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}"), false);
		assertThatExceptionOfType(InvalidRequestException.class).isThrownBy(() -> MessagesToChat.validate(
				json("{\"model\":\"m\",\"max_tokens\":1,\"messages\":[{\"role\":\"system\",\"content\":\"x\"}]}"),
				true))
			.satisfies((error) -> assertThat(error.param()).isEqualTo("messages.0.role"));
	}

	private JsonNode translate(String body) {
		ObjectNode request = json(body);
		MessagesToChat.validate(request, true);
		return this.toChat.translate(request);
	}

	private ObjectNode json(String body) {
		return (ObjectNode) this.mapper.readTree(body);
	}

}
