package dev.junction.gateway.chat;

import java.net.ServerSocket;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import com.openai.client.OpenAIClient;
import com.openai.core.JsonValue;
import com.openai.core.http.StreamResponse;
import com.openai.errors.OpenAIServiceException;
import com.openai.models.FunctionDefinition;
import com.openai.models.FunctionParameters;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionChunk;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import com.openai.models.chat.completions.ChatCompletionMessageFunctionToolCall;
import dev.junction.gateway.support.GatewayFixture;
import dev.junction.gateway.support.Http;
import dev.junction.gateway.support.Json;
import dev.junction.gateway.support.NoErrorLogs;
import dev.junction.mock.MockProviderServer;
import dev.junction.mock.stats.Route;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.netty.ByteBufFlux;
import reactor.netty.http.client.HttpClient;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * The gateway and the provider emulator on random ports, driven by the official OpenAI
 * Java SDK where a real client can express the request, and by raw HTTP where it cannot.
 */
class ChatCompletionsIntegrationTests {

	private static final String KEY = "gw-test-key";

	@RegisterExtension
	final NoErrorLogs noErrorLogs = new NoErrorLogs();

	private static MockProviderServer upstream;

	private static MockProviderServer failing;

	private static MockProviderServer slow;

	private static MockProviderServer truncating;

	private static MockProviderServer trickling;

	private static GatewayFixture gateway;

	private static OpenAIClient client;

	@BeforeAll
	static void start() throws Exception {
		upstream = MockProviderServer.start(Map.of("junction.mock.api-keys", "sk-upstream-1"));
		failing = MockProviderServer.start(Map.of("junction.mock.error-rate", 1.0, "junction.mock.error-status", 503));
		slow = MockProviderServer.start(Map.of("junction.mock.latency-ms", 3000));
		truncating = MockProviderServer.start(Map.of("junction.mock.truncate-stream-after", 3));
		trickling = MockProviderServer.start(Map.of("junction.mock.chunk-delay-ms", 200, "junction.mock.stream-chunks",
				50, "junction.mock.completion-tokens", 50));
		int closedPort;
		try (ServerSocket socket = new ServerSocket(0)) {
			closedPort = socket.getLocalPort();
		}
		gateway = GatewayFixture.withKey(KEY)
			.properties("junction.gateway.http.max-body-size=16KB",
					"junction.gateway.models.fast.targets[0]=up/gpt-4o-mini")
			.mock()
			.openAi("up", upstream, "sk-upstream-1")
			.openAi("down", failing, "sk-x")
			.openAi("slow", slow, "sk-x")
			.properties("junction.gateway.providers.slow.timeout=500ms")
			.openAi("cut", truncating, "sk-x")
			.openAi("trickle", trickling, "sk-x")
			.openAi("gone", "http://127.0.0.1:" + closedPort + "/v1", "sk-x")
			.anthropic("claude", upstream, "sk-upstream-1")
			.start();
		client = gateway.openAiClient(KEY);
	}

	@AfterAll
	static void stop() {
		gateway.close();
	}

	@Test
	void completesThroughAnOpenAiCompatibleUpstream() {
		ChatCompletion completion = client.chat()
			.completions()
			.create(ChatCompletionCreateParams.builder()
				.model("up/gpt-4o-mini")
				.addUserMessage("Say hello")
				.maxCompletionTokens(5)
				.build());
		assertThat(completion.choices()).hasSize(1);
		assertThat(completion.choices().get(0).message().content()).isPresent();
		assertThat(completion.model()).isEqualTo("gpt-4o-mini");
		assertThat(completion.usage()).isPresent();
		assertThat(completion.usage().get().completionTokens()).isPositive();
	}

	@Test
	void servesAnAliasThroughItsFirstTarget() {
		ChatCompletion completion = client.chat()
			.completions()
			.create(ChatCompletionCreateParams.builder().model("fast").addUserMessage("hi").build());
		assertThat(completion.model()).isEqualTo("gpt-4o-mini");
	}

	@Test
	void streamsChunksEndingWithUsageWhenAsked() {
		List<ChatCompletionChunk> chunks = new ArrayList<>();
		try (StreamResponse<ChatCompletionChunk> stream = client.chat()
			.completions()
			.createStreaming(ChatCompletionCreateParams.builder()
				.model("up/gpt-4o-mini")
				.addUserMessage("Tell me a story")
				.streamOptions(com.openai.models.chat.completions.ChatCompletionStreamOptions.builder()
					.includeUsage(true)
					.build())
				.build())) {
			stream.stream().forEach(chunks::add);
		}
		assertThat(chunks).hasSizeGreaterThan(2);
		StringBuilder text = new StringBuilder();
		chunks
			.forEach((chunk) -> chunk.choices().forEach((choice) -> choice.delta().content().ifPresent(text::append)));
		assertThat(text).isNotEmpty();
		assertThat(chunks.get(chunks.size() - 1).usage()).isPresent();
	}

	@Test
	void streamsWithoutTheUsageChunkWhenNotAsked() {
		HttpResponse<String> response = Http.post(gateway.baseUrl() + "/v1/chat/completions", "Bearer " + KEY,
				"{\"model\":\"up/gpt-4o-mini\",\"stream\":true,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.headers().firstValue("content-type"))
			.hasValueSatisfying((type) -> assertThat(type).startsWith("text/event-stream"));
		assertThat(response.body()).endsWith("data: [DONE]\n\n").doesNotContain("\"choices\":[]");
	}

	@Test
	void passesToolsThroughAndReturnsToolCalls() {
		ChatCompletion completion = client.chat()
			.completions()
			.create(ChatCompletionCreateParams.builder()
				.model("up/gpt-4o-mini")
				.addUserMessage("What is the weather in Paris?")
				.addFunctionTool(weatherTool())
				.build());
		ChatCompletionMessageFunctionToolCall call = completion.choices()
			.get(0)
			.message()
			.toolCalls()
			.orElseThrow()
			.get(0)
			.asFunction();
		assertThat(call.function().name()).isEqualTo("get_weather");
		assertThat(completion.choices().get(0).finishReason().asString()).isEqualTo("tool_calls");
	}

	@Test
	void routesAnAnthropicModelThroughSpringAi() {
		ChatCompletion completion = client.chat()
			.completions()
			.create(ChatCompletionCreateParams.builder()
				.model("claude/claude-haiku-4-5")
				.addSystemMessage("Be brief.")
				.addUserMessage("Say hello")
				.maxCompletionTokens(20)
				.temperature(0.2)
				.build());
		assertThat(completion.choices().get(0).message().content())
			.hasValueSatisfying((content) -> assertThat(content).isNotBlank());
		assertThat(completion.usage().orElseThrow().promptTokens()).isPositive();
		assertThat(upstream.stats().route(Route.MESSAGES).requests()).isPositive();
	}

	@Test
	void streamsAnAnthropicModelAndReturnsItsToolCalls() {
		List<ChatCompletionChunk> chunks = new ArrayList<>();
		try (StreamResponse<ChatCompletionChunk> stream = client.chat()
			.completions()
			.createStreaming(ChatCompletionCreateParams.builder()
				.model("claude/claude-haiku-4-5")
				.addUserMessage("Tell me a story")
				.build())) {
			stream.stream().forEach(chunks::add);
		}
		StringBuilder text = new StringBuilder();
		chunks
			.forEach((chunk) -> chunk.choices().forEach((choice) -> choice.delta().content().ifPresent(text::append)));
		assertThat(text).isNotEmpty();

		ChatCompletion tools = client.chat()
			.completions()
			.create(ChatCompletionCreateParams.builder()
				.model("claude/claude-haiku-4-5")
				.addUserMessage("What is the weather in Paris?")
				.addFunctionTool(weatherTool())
				.build());
		assertThat(tools.choices().get(0).finishReason().asString()).isEqualTo("tool_calls");
		assertThat(tools.choices().get(0).message().toolCalls().orElseThrow().get(0).asFunction().function().name())
			.isEqualTo("get_weather");
	}

	@Test
	void answersFromTheInProcessMockProvider() {
		ChatCompletion completion = client.chat()
			.completions()
			.create(ChatCompletionCreateParams.builder().model("mock/echo-1").addUserMessage("ping pong").build());
		assertThat(completion.choices().get(0).message().content()).hasValue("Mock answer to: ping pong");
	}

	@Test
	void listsModelsAndAliases() {
		HttpResponse<String> response = Http.get(gateway.baseUrl() + "/v1/models", "Bearer " + KEY);
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.body()).contains("\"object\":\"list\"")
			.contains("\"id\":\"fast\"")
			.contains("\"id\":\"mock/echo-1\"");
		assertThat(Http.get(gateway.baseUrl() + "/v1/models").statusCode()).isEqualTo(401);
	}

	@Test
	void refusesRequestsWithoutAValidGatewayKey() {
		HttpResponse<String> response = Http.post(gateway.baseUrl() + "/v1/chat/completions", "Bearer wrong", body());
		assertThat(response.statusCode()).isEqualTo(401);
		assertThat(response.body()).contains("\"type\":\"authentication_error\"").doesNotContain(KEY);
		assertThat(Http.post(gateway.baseUrl() + "/v1/chat/completions", null, body()).statusCode()).isEqualTo(401);
		assertThat(Http.get(gateway.baseUrl() + "/health").statusCode()).isEqualTo(200);
	}

	@Test
	void answersMalformedJsonWith400() {
		HttpResponse<String> response = Http.post(gateway.baseUrl() + "/ai/chat/completions", "Bearer " + KEY,
				"{\"model\": ");
		assertThat(response.statusCode()).isEqualTo(400);
		assertThat(response.body()).contains("\"code\":\"invalid_json\"")
			.contains("\"type\":\"invalid_request_error\"");
	}

	@Test
	void answersMissingMessagesWith400() {
		HttpResponse<String> response = Http.post(gateway.baseUrl() + "/v1/chat/completions", "Bearer " + KEY,
				"{\"model\":\"up/gpt-4o-mini\"}");
		assertThat(response.statusCode()).isEqualTo(400);
		assertThat(response.body()).contains("\"param\":\"messages\"");
	}

	@Test
	void answersUnknownProviderOrModelWith404() {
		assertStatus("nowhere/gpt-4o", 404, "model_not_found");
		assertStatus("gpt-4o", 404, "model_not_found");
	}

	@Test
	void answersAnOversizedBodyWith413() {
		String big = "x".repeat(20_000);
		HttpResponse<String> response = Http.post(gateway.baseUrl() + "/v1/chat/completions", "Bearer " + KEY,
				"{\"model\":\"up/gpt-4o-mini\",\"messages\":[{\"role\":\"user\",\"content\":\"" + big + "\"}]}");
		assertThat(response.statusCode()).isEqualTo(413);
		assertThat(response.body()).contains("\"code\":\"request_too_large\"");
	}

	@Test
	void passesAnUpstreamClientErrorOnAsTheProviderSentIt() {
		HttpResponse<String> response = Http.post(gateway.baseUrl() + "/v1/chat/completions", "Bearer " + KEY,
				"{\"model\":\"up/gpt-4o-mini\",\"tools\":[{\"type\":\"function\",\"function\":{}}],"
						+ "\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");
		assertThat(response.statusCode()).isEqualTo(400);
		JsonNode error = Json.parse(response.body()).path("error");
		assertThat(error.path("message").asString()).isEqualTo("Missing required parameter: 'tools[].function.name'.");
		assertThat(error.path("param").asString()).isEqualTo("tools");
		assertThat(error.path("type").asString()).isEqualTo("invalid_request_error");
		assertThat(error.path("code").isNull()).isTrue();
	}

	@Test
	void mapsAnUpstream503() {
		assertStatus("down/gpt-4o-mini", 503, "upstream_503");
	}

	@Test
	void mapsAnUpstreamTimeoutTo504() {
		assertStatus("slow/gpt-4o-mini", 504, "upstream_timeout");
	}

	@Test
	void mapsARefusedConnectionTo502() {
		assertStatus("gone/gpt-4o-mini", 502, "upstream_unavailable");
	}

	@Test
	void endsAStreamCutOffByTheUpstreamWithAnErrorEventAndNoDone() {
		HttpResponse<String> response = Http.post(gateway.baseUrl() + "/v1/chat/completions", "Bearer " + KEY,
				"{\"model\":\"cut/gpt-4o-mini\",\"stream\":true,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.body()).contains("data: {\"error\":").doesNotContain("[DONE]");
	}

	@Test
	void failsAStreamBeforeItsFirstChunkWithAnErrorStatus() {
		HttpResponse<String> response = Http.post(gateway.baseUrl() + "/v1/chat/completions", "Bearer " + KEY,
				"{\"model\":\"down/gpt-4o-mini\",\"stream\":true,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");
		assertThat(response.statusCode()).isEqualTo(503);
		assertThat(response.body()).startsWith("{\"error\":");
	}

	@Test
	void sendsEachChunkOnAsItArrives() {
		// The upstream sends a chunk every 200 ms: held back, they would arrive together.
		List<Long> arrivals = tricklingStream().filter((text) -> text.contains("data:"))
			.map((text) -> System.nanoTime())
			.take(3)
			.collectList()
			.block(Duration.ofSeconds(10));
		assertThat(arrivals).hasSize(3);
		assertThat(Duration.ofNanos(arrivals.get(2) - arrivals.get(0))).isGreaterThan(Duration.ofMillis(300));
	}

	@Test
	void cancelsTheUpstreamStreamWhenTheClientGoesAway() throws InterruptedException {
		long cancelledBefore = trickling.stats().route(Route.CHAT_COMPLETIONS).cancelled();
		String first = tricklingStream().next().block(Duration.ofSeconds(10));
		assertThat(first).contains("data:");
		long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
		while (trickling.stats().route(Route.CHAT_COMPLETIONS).cancelled() == cancelledBefore
				&& System.nanoTime() < deadline) {
			Thread.sleep(50);
		}
		assertThat(trickling.stats().route(Route.CHAT_COMPLETIONS).cancelled()).isGreaterThan(cancelledBefore);
	}

	@Test
	void reportsServerTimingAndMetricsWithSloBuckets() {
		HttpResponse<String> response = Http.post(gateway.baseUrl() + "/v1/chat/completions", "Bearer " + KEY, body());
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.headers().firstValue("server-timing"))
			.hasValueSatisfying((timing) -> assertThat(timing).matches("gateway;dur=[0-9.]+, upstream;dur=[0-9.]+"));
		// The request timers stop once the response is written, so the client can see it
		// a moment earlier.
		await().atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> assertThat(Http.get(gateway.baseUrl() + "/actuator/prometheus").body())
				.containsPattern(
						"junction_gateway_requests_seconds_count\\{[^}]*model=\"gpt-4o-mini\"[^}]*outcome=\"success\""
								+ "[^}]*provider=\"up\"[^}]*status=\"200\"[^}]*} [1-9]")
				.containsPattern(
						"gen_ai_client_operation_duration_seconds_count\\{[^}]*gen_ai_provider_name=\"openai\"")
				.containsPattern("gen_ai_client_token_usage_tokens_sum\\{[^}]*gen_ai_token_type=\"output\"[^}]*} [1-9]")
				.containsPattern("junction_gateway_overhead_seconds_bucket\\{[^}]*entry=\"chat\",le=\"1.0E-5\"} [0-9]")
				.containsPattern("junction_gateway_overhead_seconds_bucket\\{[^}]*entry=\"chat\",le=\"0.05\"} [1-9]")
				.containsPattern(
						"junction_gateway_upstream_seconds_bucket\\{[^}]*entry=\"chat\",provider=\"up\",le=\"60.0\"} [1-9]")
				.containsPattern(
						"junction_gateway_requests_seconds_bucket\\{[^}]*provider=\"up\"[^}]*le=\"0.0025\"} [0-9]")
				.containsPattern("gen_ai_client_operation_duration_seconds_bucket\\{[^}]*le=\"81.92\"} [1-9]")
				.containsPattern("gen_ai_client_token_usage_tokens_bucket\\{[^}]*le=\"4.0\"} [0-9]")
				.containsPattern(
						"http_server_requests_seconds_bucket\\{[^}]*uri=\"/v1/chat/completions\",le=\"60.0\"} [1-9]")
				.doesNotContainPattern("junction_gateway_requests_seconds_bucket\\{[^}]*le=\"1.0E-4\"}")
				.doesNotContain("http_server_requests_active_seconds"));
	}

	/** A stream from the upstream that sends a chunk every 200 ms, as it arrives. */
	private static Flux<String> tricklingStream() {
		return HttpClient.create()
			.headers((headers) -> headers.set("Authorization", "Bearer " + KEY).set("Content-Type", "application/json"))
			.post()
			.uri(gateway.baseUrl() + "/v1/chat/completions")
			.send(ByteBufFlux.fromString(Mono.just(
					"{\"model\":\"trickle/gpt-4o-mini\",\"stream\":true,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}")))
			.responseContent()
			.asString();
	}

	private static String body() {
		return "{\"model\":\"up/gpt-4o-mini\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],\"max_tokens\":2}";
	}

	private static void assertStatus(String model, int status, String code) {
		assertThatExceptionOfType(OpenAIServiceException.class)
			.isThrownBy(() -> client.chat()
				.completions()
				.create(ChatCompletionCreateParams.builder().model(model).addUserMessage("hi").build()))
			.satisfies((ex) -> {
				assertThat(ex.statusCode()).isEqualTo(status);
				assertThat(ex.body().toString()).contains(code);
			});
	}

	private static FunctionDefinition weatherTool() {
		return FunctionDefinition.builder()
			.name("get_weather")
			.description("Current weather for a city")
			.parameters(FunctionParameters.builder()
				.putAdditionalProperty("type", JsonValue.from("object"))
				.putAdditionalProperty("properties", JsonValue.from(Map.of("city", Map.of("type", "string"))))
				.build())
			.build();
	}

}
