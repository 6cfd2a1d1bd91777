package dev.junction.gateway.provider;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

class ClientBytesTests {

	private final JsonMapper mapper = JsonMapper.builder().build();

	@Test
	void replacesOnlyTheModelAndKeepsEveryOtherByte() {
		String client = "{ \"temperature\" : 1.0,\n  \"model\":\"emu/gpt-4o-mini\" , \"messages\":[{\"role\":\"user\","
				+ "\"content\":\"h\\u00e9llo \u2713 \\\"quoted\\\"\",\"model\":\"nested/not-this\"}],\"n\":1 }";
		String sent = withModel(client, "gpt-4o-mini");
		assertThat(sent).isEqualTo(client.replace("\"emu/gpt-4o-mini\"", "\"gpt-4o-mini\""));
		assertThat(this.mapper.readTree(sent).path("messages").get(0).path("model").asString())
			.isEqualTo("nested/not-this");
	}

	@Test
	void countsInBytesPastMultiByteCharacters() {
		String client = "{\"messages\":[{\"role\":\"user\",\"content\":\"\u00e9\u00e9\u2713\u2713 \uD83D\uDE00\"}],"
				+ "\"model\":\"emu/x\",\"stream\":false}";
		String sent = withModel(client, "x");
		assertThat(sent).isEqualTo(client.replace("\"emu/x\"", "\"x\""));
	}

	@Test
	void writesAModelThatNeedsEscapingAsValidJson() {
		String client = "{\"model\":\"emu\\/odd\",\"messages\":[]}";
		JsonNode sent = this.mapper.readTree(withModel(client, "a \"b\" \u00e9"));
		assertThat(sent.path("model").asString()).isEqualTo("a \"b\" \u00e9");
		assertThat(sent.path("messages").isArray()).isTrue();
	}

	@Test
	void isNotFoundWhenTheModelCannotBeReplacedInPlaceSafely() {
		assertThat(find("{\"model\":\"a\",\"messages\":[],\"model\":\"b\"}")).as("model twice").isNull();
		assertThat(find("{\"model\":\"a\",\"max_tokens\":1,\"max_tokens\":900}")).as("another top-level key twice")
			.isNull();
		assertThat(find("{\"model\":7,\"messages\":[]}")).as("model not a string").isNull();
		assertThat(find("{\"messages\":[{\"model\":\"a\"}]}")).as("no top-level model").isNull();
		assertThat(find("[{\"model\":\"a\"}]")).as("not an object").isNull();
		assertThat(find("{\"messages\":[{\"a\":1,\"a\":2}],\"model\":\"a\"}"))
			.as("a nested key twice is the upstream's")
			.isNotNull();
	}

	@Test
	void aRequestKeepsTheClientsBytesOnlyWhileItIsThem() {
		byte[] json = "{\"model\":\"emu/x\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],\"user\":\"u1\"}"
			.getBytes(StandardCharsets.UTF_8);
		ChatRequest parsed = ChatRequest.parse(json, this.mapper);
		assertThat(parsed.json()).isSameAs(json);
		assertThat(parsed.without("user").json()).isNull();
		assertThat(ChatRequest.of(parsed.body()).json()).isNull();
	}

	private String withModel(String client, String model) {
		ClientBytes bytes = find(client);
		assertThat(bytes).isNotNull();
		return new String(bytes.withModel(this.mapper.writeValueAsBytes(model)), StandardCharsets.UTF_8);
	}

	private ClientBytes find(String client) {
		return ClientBytes.find(client.getBytes(StandardCharsets.UTF_8), this.mapper.tokenStreamFactory());
	}

}
