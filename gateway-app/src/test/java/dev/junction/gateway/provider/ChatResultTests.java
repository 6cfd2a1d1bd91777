package dev.junction.gateway.provider;

import java.nio.charset.StandardCharsets;
import java.util.List;

import dev.junction.openai.ChatCompletion;
import dev.junction.openai.CompletionUsage;
import org.junit.jupiter.api.Test;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class ChatResultTests {

	private final JsonMapper mapper = JsonMapper.builder().build();

	@Test
	void givesTheCompletionTheProviderMadeWithoutReadingTheBody() {
		ChatCompletion made = new ChatCompletion("c", 1, "m",
				List.of(new ChatCompletion.Choice(0, ChatCompletion.Message.assistant("made", null), "stop")),
				CompletionUsage.of(1, 1), null);
		ChatResult result = new ChatResult("not json".getBytes(StandardCharsets.UTF_8), Usage.NONE, "stop", "m", made);
		assertThat(result.chatCompletion(this.mapper)).isSameAs(made);
	}

	@Test
	void readsAnUpstreamsCompletionThatLeavesOutWhatItNeedNotSend() {
		ChatResult result = new ChatResult("{\"choices\":[{\"message\":{\"role\":\"assistant\",\"content\":\"hi\"}}]}"
			.getBytes(StandardCharsets.UTF_8), Usage.NONE, null, null);
		ChatCompletion completion = result.chatCompletion(this.mapper);
		assertThat(completion.text()).isEqualTo("hi");
		assertThat(completion.created()).isZero();
		assertThat(completion.finishReason()).isNull();
	}

	@Test
	void refusesABodyThatIsNotJson() {
		ChatResult result = new ChatResult("<html>".getBytes(StandardCharsets.UTF_8), Usage.NONE, null, null);
		assertThatExceptionOfType(JacksonException.class).isThrownBy(() -> result.chatCompletion(this.mapper));
	}

}
