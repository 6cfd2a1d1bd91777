package dev.junction.gateway.provider;

import java.nio.charset.StandardCharsets;

import dev.junction.gateway.error.InvalidRequestException;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class ChatRequestTests {

	private final JsonMapper mapper = JsonMapper.builder().build();

	@Test
	void readsWhatRoutingNeedsAndKeepsEveryOtherField() {
		ChatRequest request = parse("""
				{"model":"openai/gpt-4o","messages":[{"role":"user","content":"hi"}],"stream":true,
				 "stream_options":{"include_usage":true},"max_tokens":7,"logprobs":true,"future_field":{"x":1}}""");
		assertThat(request.model()).isEqualTo("openai/gpt-4o");
		assertThat(request.stream()).isTrue();
		assertThat(request.includeUsage()).isTrue();
		assertThat(request.maxTokens()).isEqualTo(7);
		assertThat(request.body().get("future_field").get("x").asInt()).isEqualTo(1);
		assertThat(request.body().get("logprobs").asBoolean()).isTrue();
	}

	@Test
	void rejectsMalformedJson() {
		assertThatExceptionOfType(InvalidRequestException.class).isThrownBy(() -> parse("{\"model\":"))
			.satisfies((ex) -> {
				assertThat(ex.status()).isEqualTo(400);
				assertThat(ex.code()).isEqualTo("invalid_json");
			});
		assertThatExceptionOfType(InvalidRequestException.class).isThrownBy(() -> parse("[1,2]"))
			.satisfies((ex) -> assertThat(ex.code()).isEqualTo("invalid_json"));
	}

	@Test
	void rejectsMissingOrEmptyMessages() {
		assertThatExceptionOfType(InvalidRequestException.class).isThrownBy(() -> parse("{\"model\":\"mock/x\"}"))
			.satisfies((ex) -> {
				assertThat(ex.param()).isEqualTo("messages");
				assertThat(ex.code()).isEqualTo("missing_required_parameter");
			});
		assertThatExceptionOfType(InvalidRequestException.class)
			.isThrownBy(() -> parse("{\"model\":\"mock/x\",\"messages\":[]}"))
			.satisfies((ex) -> assertThat(ex.param()).isEqualTo("messages"));
		assertThatExceptionOfType(InvalidRequestException.class)
			.isThrownBy(() -> parse("{\"model\":\"mock/x\",\"messages\":[{\"content\":\"no role\"}]}"))
			.satisfies((ex) -> assertThat(ex.param()).isEqualTo("messages[0].role"));
	}

	@Test
	void rejectsMissingModelAndBadTypes() {
		assertThatExceptionOfType(InvalidRequestException.class)
			.isThrownBy(() -> parse("{\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}"))
			.satisfies((ex) -> assertThat(ex.param()).isEqualTo("model"));
		assertThatExceptionOfType(InvalidRequestException.class)
			.isThrownBy(() -> parse("{\"model\":\"mock/x\",\"stream\":\"yes\",\"messages\":[{\"role\":\"user\"}]}"))
			.satisfies((ex) -> assertThat(ex.param()).isEqualTo("stream"));
		assertThatExceptionOfType(InvalidRequestException.class)
			.isThrownBy(() -> parse("{\"model\":\"mock/x\",\"max_tokens\":0,\"messages\":[{\"role\":\"user\"}]}"))
			.satisfies((ex) -> assertThat(ex.param()).isEqualTo("max_tokens"));
	}

	private ChatRequest parse(String json) {
		return ChatRequest.parse(json.getBytes(StandardCharsets.UTF_8), this.mapper);
	}

}
