package dev.junction.mock.sdk;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.core.JsonValue;
import com.openai.core.http.StreamResponse;
import com.openai.errors.InternalServerException;
import com.openai.errors.NotFoundException;
import com.openai.helpers.ResponseAccumulator;
import com.openai.models.embeddings.CreateEmbeddingResponse;
import com.openai.models.embeddings.EmbeddingCreateParams;
import com.openai.models.models.Model;
import com.openai.models.responses.FunctionTool;
import com.openai.models.responses.Response;
import com.openai.models.responses.ResponseCreateParams;
import com.openai.models.responses.ResponseFunctionToolCall;
import com.openai.models.responses.ResponseInputItem;
import com.openai.models.responses.ResponseStatus;
import com.openai.models.responses.ResponseStreamEvent;
import dev.junction.mock.MockProviderServer;
import dev.junction.mock.completion.MockText;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/**
 * The official OpenAI Java SDK parses and validates the emulator's Responses, Embeddings
 * and model answers, streamed Responses events included.
 */
class OpenAiSdkResponsesIntegrationTests {

	private static MockProviderServer server;

	private static OpenAIClient client;

	@BeforeAll
	static void start() {
		server = MockProviderServer.start(Map.of("junction.mock.completion-tokens", 12));
		client = OpenAIOkHttpClient.builder().baseUrl(server.openAiBaseUrl()).apiKey("sk-sdk").maxRetries(0).build();
	}

	@AfterAll
	static void stop() {
		client.close();
		server.close();
	}

	@Test
	void parsesAndValidatesAResponse() {
		Response response = client.responses().create(responses().instructions("Be brief.").build());

		response.validate();
		assertThat(response.id()).startsWith("resp_");
		assertThat(response.status()).contains(ResponseStatus.COMPLETED);
		assertThat(response.output().get(0).asMessage().content().get(0).asOutputText().text())
			.isEqualTo(MockText.reply("hello world", 12));
		assertThat(response.usage().orElseThrow().outputTokens()).isEqualTo(12);
		assertThat(response.instructions().orElseThrow().asString()).isEqualTo("Be brief.");
	}

	@Test
	void validatesEveryStreamedEventAndAccumulatesTheResponse() {
		ResponseAccumulator accumulator = ResponseAccumulator.create();
		List<String> deltas = new ArrayList<>();
		try (StreamResponse<ResponseStreamEvent> stream = client.responses().createStreaming(responses().build())) {
			stream.stream().forEach((event) -> {
				event.validate();
				accumulator.accumulate(event);
				event.outputTextDelta().ifPresent((delta) -> deltas.add(delta.delta()));
			});
		}

		Response response = accumulator.response();
		assertThat(response.status()).contains(ResponseStatus.COMPLETED);
		assertThat(String.join("", deltas)).isEqualTo(MockText.reply("hello world", 12));
		assertThat(response.output().get(0).asMessage().content().get(0).asOutputText().text())
			.isEqualTo(MockText.reply("hello world", 12));
	}

	@Test
	void parsesAFunctionCallAndTakesItsOutputBack() {
		Response called = client.responses().create(responses().addTool(weatherTool()).build());

		called.validate();
		ResponseFunctionToolCall call = called.output().get(0).asFunctionCall();
		assertThat(call.name()).isEqualTo("get_weather");
		assertThat(call.arguments()).isEqualTo("{\"city\":\"mock\"}");

		Response answered = client.responses()
			.create(ResponseCreateParams.builder()
				.model("gpt-4o-mini")
				.addTool(weatherTool())
				.inputOfResponse(List.of(ResponseInputItem.ofFunctionCall(call), ResponseInputItem.ofFunctionCallOutput(
						ResponseInputItem.FunctionCallOutput.builder().callId(call.callId()).output("sunny").build())))
				.build());
		answered.validate();
		assertThat(answered.output().get(0).isMessage()).isTrue();
	}

	@Test
	void accumulatesAStreamedFunctionCall() {
		ResponseAccumulator accumulator = ResponseAccumulator.create();
		try (StreamResponse<ResponseStreamEvent> stream = client.responses()
			.createStreaming(responses().addTool(weatherTool()).build())) {
			stream.stream().forEach((event) -> {
				event.validate();
				accumulator.accumulate(event);
			});
		}

		ResponseFunctionToolCall call = accumulator.response().output().get(0).asFunctionCall();
		assertThat(call.name()).isEqualTo("get_weather");
		assertThat(call.arguments()).isEqualTo("{\"city\":\"mock\"}");
	}

	@Test
	void reportsAnIncompleteResponse() {
		Response response = client.responses().create(responses().maxOutputTokens(4).build());

		response.validate();
		assertThat(response.status()).contains(ResponseStatus.INCOMPLETE);
		assertThat(response.incompleteDetails().orElseThrow().reason().orElseThrow().asString())
			.isEqualTo("max_output_tokens");
	}

	@Test
	void surfacesAnInjected500() {
		ResponseCreateParams params = responses().putAdditionalHeader("x-mock-status", "500").build();

		assertThatThrownBy(() -> client.responses().create(params)).isInstanceOf(InternalServerException.class);
	}

	@Test
	void parsesFloatAndBase64Embeddings() {
		CreateEmbeddingResponse floats = client.embeddings()
			.create(EmbeddingCreateParams.builder()
				.model("text-embedding-3-small")
				.inputOfArrayOfStrings(List.of("hello", "world"))
				.encodingFormat(EmbeddingCreateParams.EncodingFormat.FLOAT)
				.build());
		CreateEmbeddingResponse base64 = client.embeddings()
			.create(EmbeddingCreateParams.builder()
				.model("text-embedding-3-small")
				.inputOfArrayOfStrings(List.of("hello", "world"))
				.encodingFormat(EmbeddingCreateParams.EncodingFormat.BASE64)
				.dimensions(1536)
				.build());

		floats.validate();
		base64.validate();
		assertThat(floats.data()).hasSize(2);
		assertThat(base64.data().get(0).embeddingValue().isBase64()).isTrue();
		List<Float> vector = floats.data().get(0).embedding();
		assertThat(vector).hasSize(1536).isEqualTo(base64.data().get(0).embedding());
		assertThat(Math.sqrt(vector.stream().mapToDouble((x) -> x * x).sum())).isCloseTo(1.0, within(1e-4));
		assertThat(floats.usage().promptTokens()).isEqualTo(MockText.estimateTokens(5) * 2L);
	}

	@Test
	void retrievesAModelAndRefusesAnUnknownOne() {
		Model model = client.models().retrieve("gpt-4o-mini");

		model.validate();
		assertThat(model.id()).isEqualTo("gpt-4o-mini");
		assertThatThrownBy(() -> client.models().retrieve("gpt-unknown")).isInstanceOf(NotFoundException.class);
	}

	private static ResponseCreateParams.Builder responses() {
		return ResponseCreateParams.builder().model("gpt-4o-mini").input("hello world");
	}

	private static FunctionTool weatherTool() {
		return FunctionTool.builder()
			.name("get_weather")
			.strict(true)
			.parameters(FunctionTool.Parameters.builder()
				.putAdditionalProperty("type", JsonValue.from("object"))
				.putAdditionalProperty("properties", JsonValue.from(Map.of("city", Map.of("type", "string"))))
				.putAdditionalProperty("required", JsonValue.from(List.of("city")))
				.putAdditionalProperty("additionalProperties", JsonValue.from(false))
				.build())
			.build();
	}

}
