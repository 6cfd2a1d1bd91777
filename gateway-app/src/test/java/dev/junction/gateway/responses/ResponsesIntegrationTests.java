package dev.junction.gateway.responses;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import com.openai.client.OpenAIClient;
import com.openai.core.JsonValue;
import com.openai.core.http.StreamResponse;
import com.openai.errors.BadRequestException;
import com.openai.errors.NotFoundException;
import com.openai.helpers.ResponseAccumulator;
import com.openai.models.responses.FunctionTool;
import com.openai.models.responses.Response;
import com.openai.models.responses.ResponseCreateParams;
import com.openai.models.responses.ResponseFunctionToolCall;
import com.openai.models.responses.ResponseOutputItem;
import com.openai.models.responses.ResponseStreamEvent;
import com.openai.models.responses.ToolChoiceFunction;
import dev.junction.gateway.support.GatewayFixture;
import dev.junction.gateway.support.Json;
import dev.junction.gateway.support.NoErrorLogs;
import dev.junction.gateway.support.Sse;
import dev.junction.mock.MockProviderServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The OpenAI Responses API with the official OpenAI Java SDK as the client, translated to
 * chat completions for an OpenAI-compatible provider, an Anthropic provider and the
 * in-process mock.
 */
class ResponsesIntegrationTests {

	private static final String KEY = "gw-responses-key";

	@RegisterExtension
	final NoErrorLogs noErrorLogs = new NoErrorLogs();

	private static GatewayFixture gateway;

	private static OpenAIClient client;

	@BeforeAll
	static void start() {
		MockProviderServer emulator = MockProviderServer.start(Map.of("junction.mock.api-keys", "sk-emu"));
		MockProviderServer truncating = MockProviderServer.start(Map.of("junction.mock.truncate-stream-after", 4));
		gateway = GatewayFixture.withKey(KEY)
			.properties("junction.gateway.cache.enabled=false")
			.mock()
			.openAi("emulator", emulator, "sk-emu")
			.anthropic("claude", emulator, "sk-emu")
			.openAi("cut", truncating, "sk-x")
			.start();
		client = gateway.openAiClient(KEY);
	}

	@AfterAll
	static void stop() {
		gateway.close();
	}

	@ParameterizedTest
	@ValueSource(strings = { "emulator/gpt-4o-mini", "claude/claude-haiku-4-5", "mock/echo-1" })
	void answersTheSdkWithAResponse(String model) {
		Response response = client.responses()
			.create(ResponseCreateParams.builder()
				.model(model)
				.instructions("Be brief.")
				.input("Say hello")
				.maxOutputTokens(64)
				.build());
		assertThat(response.id()).startsWith("resp_");
		assertThat(response.status())
			.hasValueSatisfying((status) -> assertThat(status.toString()).isEqualTo("completed"));
		ResponseOutputItem item = response.output().get(0);
		assertThat(item.isMessage()).isTrue();
		assertThat(item.asMessage().content().get(0).asOutputText().text()).isNotBlank();
		assertThat(response.usage()).hasValueSatisfying((usage) -> {
			assertThat(usage.inputTokens()).isPositive();
			assertThat(usage.outputTokens()).isPositive();
			assertThat(usage.totalTokens()).isEqualTo(usage.inputTokens() + usage.outputTokens());
		});
		assertThat(response.instructions()).isPresent();
	}

	@ParameterizedTest
	@ValueSource(strings = { "emulator/gpt-4o-mini", "claude/claude-haiku-4-5" })
	void streamsTheResponsesEventSequenceToTheSdk(String model) {
		List<ResponseStreamEvent> events = new ArrayList<>();
		ResponseAccumulator accumulator = ResponseAccumulator.create();
		StringBuilder deltas = new StringBuilder();
		try (StreamResponse<ResponseStreamEvent> stream = client.responses()
			.createStreaming(ResponseCreateParams.builder().model(model).input("Count to five").build())) {
			stream.stream().forEach((event) -> {
				events.add(event);
				accumulator.accumulate(event);
				event.outputTextDelta().ifPresent((delta) -> deltas.append(delta.delta()));
			});
		}
		assertThat(events.get(0).isCreated()).isTrue();
		assertThat(events.get(1).isInProgress()).isTrue();
		assertThat(events).anyMatch(ResponseStreamEvent::isOutputItemAdded);
		assertThat(events.get(events.size() - 1).isCompleted()).isTrue();
		Response response = accumulator.response();
		String text = response.output().get(0).asMessage().content().get(0).asOutputText().text();
		assertThat(text).isNotBlank().isEqualTo(deltas.toString());
		assertThat(response.usage()).hasValueSatisfying((usage) -> assertThat(usage.outputTokens()).isPositive());
	}

	@ParameterizedTest
	@ValueSource(booleans = { false, true })
	void callsFunctionsAndTakesTheirOutputs(boolean stream) {
		ResponseCreateParams ask = ResponseCreateParams.builder()
			.model("emulator/gpt-4o-mini")
			.input("Weather in Paris?")
			.addTool(FunctionTool.builder()
				.name("get_weather")
				.description("The weather in a city")
				.strict(false)
				.parameters(FunctionTool.Parameters.builder()
					.putAdditionalProperty("type", JsonValue.from("object"))
					.putAdditionalProperty("properties", JsonValue.from(Map.of("city", Map.of("type", "string"))))
					.putAdditionalProperty("required", JsonValue.from(List.of("city")))
					.build())
				.build())
			.toolChoice(ToolChoiceFunction.builder().name("get_weather").build())
			.build();
		Response response;
		if (stream) {
			ResponseAccumulator accumulator = ResponseAccumulator.create();
			try (StreamResponse<ResponseStreamEvent> events = client.responses().createStreaming(ask)) {
				events.stream().forEach(accumulator::accumulate);
			}
			response = accumulator.response();
		}
		else {
			response = client.responses().create(ask);
		}
		ResponseFunctionToolCall call = response.output()
			.stream()
			.filter(ResponseOutputItem::isFunctionCall)
			.findFirst()
			.orElseThrow()
			.asFunctionCall();
		assertThat(call.name()).isEqualTo("get_weather");
		assertThat(Json.parse(call.arguments()).has("city")).isTrue();

		String followUp = "{\"model\":\"emulator/gpt-4o-mini\",\"input\":[{\"role\":\"user\",\"content\":"
				+ "\"Weather in Paris?\"},{\"type\":\"function_call\",\"call_id\":\"" + call.callId()
				+ "\",\"name\":\"get_weather\",\"arguments\":"
				+ JsonMapper.builder().build().writeValueAsString(call.arguments()) + "},"
				+ "{\"type\":\"function_call_output\",\"call_id\":\"" + call.callId() + "\",\"output\":\"18 C\"}],"
				+ "\"tools\":[{\"type\":\"function\",\"name\":\"get_weather\",\"parameters\":{\"type\":\"object\"}}]}";
		HttpResponse<String> answer = post(followUp);
		assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
		JsonNode output = Json.parse(answer.body()).path("output").path(0);
		assertThat(output.path("type").asString()).isEqualTo("message");
		assertThat(output.path("content").path(0).path("text").asString()).isNotBlank();
	}

	@Test
	void marksAResponseCutShortByItsTokenLimitIncomplete() {
		HttpResponse<String> response = post(
				"{\"model\":\"emulator/gpt-4o-mini\",\"input\":\"Tell a story\"," + "\"max_output_tokens\":2}");
		assertThat(response.statusCode()).isEqualTo(200);
		JsonNode body = Json.parse(response.body());
		assertThat(body.path("status").asString()).isEqualTo("incomplete");
		assertThat(body.path("incomplete_details").path("reason").asString()).isEqualTo("max_output_tokens");
	}

	@Test
	void refusesWhatNeedsServerStateOrBuiltInToolsInOpenAisErrorShape() {
		assertThatExceptionOfType(BadRequestException.class)
			.isThrownBy(() -> client.responses()
				.create(ResponseCreateParams.builder()
					.model("emulator/gpt-4o-mini")
					.input("again")
					.previousResponseId("resp_123")
					.build()))
			.satisfies((error) -> assertThat(error.getMessage()).contains("previous_response_id"));
		HttpResponse<String> webSearch = post(
				"{\"model\":\"emulator/gpt-4o-mini\",\"input\":\"news\"," + "\"tools\":[{\"type\":\"web_search\"}]}");
		assertThat(webSearch.statusCode()).isEqualTo(400);
		assertThat(Json.parse(webSearch.body()).path("error").path("param").asString()).isEqualTo("tools[0].type");
		assertThatExceptionOfType(NotFoundException.class).isThrownBy(
				() -> client.responses().create(ResponseCreateParams.builder().model("nowhere/x").input("hi").build()));
	}

	@ParameterizedTest
	@ValueSource(strings = { "{\"type\":{\"a\":1}}", "\"text\"",
			"{\"type\":\"input_image\",\"image_url\":\"https://example.com/a.png\",\"detail\":{}}" })
	void refusesMalformedInputContentInOpenAisErrorShape(String part) {
		HttpResponse<String> response = post(
				"{\"model\":\"emulator/gpt-4o-mini\",\"input\":[{\"role\":\"user\"," + "\"content\":[" + part + "]}]}");
		assertThat(response.statusCode()).isEqualTo(400);
		JsonNode error = Json.parse(response.body()).path("error");
		assertThat(error.path("type").asString()).isEqualTo("invalid_request_error");
		assertThat(error.path("param").asString()).startsWith("input[0].content[0]");
	}

	@Test
	void refusesInputContentThatIsNeitherTextNorParts() {
		HttpResponse<String> response = post(
				"{\"model\":\"emulator/gpt-4o-mini\",\"input\":[{\"role\":\"user\",\"content\":{\"a\":1}}]}");
		assertThat(response.statusCode()).isEqualTo(400);
		assertThat(Json.parse(response.body()).path("error").path("param").asString()).isEqualTo("input[0].content");
	}

	@Test
	void endsAStreamThatFailsMidwayWithAnErrorEvent() {
		HttpResponse<String> response = post("{\"model\":\"cut/gpt-4o-mini\",\"input\":\"hi\",\"stream\":true}");
		assertThat(response.statusCode()).isEqualTo(200);
		String body = response.body();
		assertThat(body).startsWith("event: response.created\n")
			.contains("event: response.output_text.delta\n")
			.doesNotContain("response.completed");
		JsonNode error = Sse.lastErrorEvent(body);
		assertThat(error.path("type").asString()).isEqualTo("error");
		assertThat(error.path("message").asString()).isNotBlank();
		Sse.assertNumberedFromZero(body);
	}

	private static HttpResponse<String> post(String body) {
		return gateway.post("/v1/responses", KEY, body);
	}

}
