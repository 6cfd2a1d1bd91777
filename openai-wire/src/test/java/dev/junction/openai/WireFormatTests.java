package dev.junction.openai;

import java.util.List;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

class WireFormatTests {

	private final JsonMapper mapper = JsonMapper.builder().build();

	@Test
	void writesACompletionWithTheNullsOpenAiSendsAndNoneOfTheAbsentParts() {
		ChatCompletion completion = new ChatCompletion("chatcmpl-1", 1700000000L, "gpt-4o-mini",
				List.of(new ChatCompletion.Choice(0, ChatCompletion.Message.assistant("Hello", null), "stop")),
				CompletionUsage.of(3, 2), "fp_1");
		assertThat(this.mapper.writeValueAsString(completion))
			.isEqualTo("{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion\",\"created\":1700000000,"
					+ "\"model\":\"gpt-4o-mini\",\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\","
					+ "\"content\":\"Hello\",\"refusal\":null},\"logprobs\":null,\"finish_reason\":\"stop\"}],"
					+ "\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":2,\"total_tokens\":5},"
					+ "\"system_fingerprint\":\"fp_1\"}");
	}

	@Test
	void writesToolCallsWithNullContent() {
		ChatCompletion.Message message = ChatCompletion.Message.assistant(null,
				List.of(ToolCall.of("call_1", "lookup", "{\"q\":1}")));
		assertThat(this.mapper.writeValueAsString(message))
			.isEqualTo("{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[{\"id\":\"call_1\","
					+ "\"type\":\"function\",\"function\":{\"name\":\"lookup\",\"arguments\":\"{\\\"q\\\":1}\"}}],"
					+ "\"refusal\":null}");
	}

	@Test
	void writesUsageAsNullOnEveryChunkButTheLastOnlyWhenTheClientAskedForIt() {
		ChatCompletionChunk.Head asked = new ChatCompletionChunk.Head("c", 1, "m", null, null, true);
		ChatCompletionChunk.Head notAsked = new ChatCompletionChunk.Head("c", 1, "m", null, null, false);
		ChatCompletionChunk.Choice start = new ChatCompletionChunk.Choice(0, ChatCompletionChunk.Delta.START, null);
		assertThat(this.mapper.writeValueAsString(ChatCompletionChunk.of(asked, start)))
			.isEqualTo("{\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\","
					+ "\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"},"
					+ "\"logprobs\":null,\"finish_reason\":null}],\"usage\":null}");
		assertThat(this.mapper.writeValueAsString(ChatCompletionChunk.of(notAsked, start))).doesNotContain("usage");
		assertThat(this.mapper.writeValueAsString(ChatCompletionChunk.usage(asked, CompletionUsage.of(4, 6))))
			.endsWith("\"choices\":[],\"usage\":{\"prompt_tokens\":4,\"completion_tokens\":6,\"total_tokens\":10}}");
	}

	@Test
	void writesAStreamedToolCallInPieces() {
		ChatCompletionChunk.Delta first = ChatCompletionChunk.Delta
			.toolCalls(List.of(ToolCall.first(0, "call_1", "lookup", "")));
		ChatCompletionChunk.Delta more = ChatCompletionChunk.Delta.toolCalls(List.of(ToolCall.arguments(0, "{\"q\"")));
		assertThat(this.mapper.writeValueAsString(first)).isEqualTo("{\"tool_calls\":[{\"index\":0,\"id\":\"call_1\","
				+ "\"type\":\"function\",\"function\":{\"name\":\"lookup\",\"arguments\":\"\"}}]}");
		assertThat(this.mapper.writeValueAsString(more))
			.isEqualTo("{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"{\\\"q\\\"\"}}]}");
		assertThat(this.mapper.writeValueAsString(ChatCompletionChunk.Delta.END)).isEqualTo("{}");
	}

	@Test
	void readsAnUpstreamCompletionWithFieldsItDoesNotKnow() {
		ChatCompletion completion = this.mapper.readValue("{\"id\":\"x\",\"object\":\"chat.completion\","
				+ "\"created\":5,\"model\":\"m\",\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\","
				+ "\"content\":\"Hi\",\"refusal\":null,\"annotations\":[],\"audio\":null},\"logprobs\":null,"
				+ "\"finish_reason\":\"length\"}],\"usage\":{\"prompt_tokens\":1,\"completion_tokens\":2,"
				+ "\"total_tokens\":3,\"prompt_tokens_details\":{\"cached_tokens\":1,\"audio_tokens\":0}},"
				+ "\"service_tier\":\"default\",\"x_vendor\":[1]}", ChatCompletion.class);
		assertThat(completion.text()).isEqualTo("Hi");
		assertThat(completion.finishReason()).isEqualTo("length");
		assertThat(completion.usage().promptTokensDetails().cachedTokens()).isEqualTo(1);
		assertThat(completion.serviceTier()).isEqualTo("default");
	}

	@Test
	void readsAnAnswerWithoutChoicesAsOneWithNone() {
		ChatCompletion completion = this.mapper.readerFor(ChatCompletion.class)
			.without(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
			.readValue("{\"id\":\"x\",\"model\":\"m\"}");
		assertThat(completion.choices()).isEmpty();
		assertThat(completion.text()).isNull();
	}

	@Test
	void hasNoTextWithoutChoices() {
		ChatCompletion completion = new ChatCompletion("x", 1, "m", List.of(), null, null);
		assertThat(completion.text()).isNull();
		assertThat(completion.finishReason()).isNull();
	}

}
