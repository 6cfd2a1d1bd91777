package dev.junction.gateway.messages;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import com.anthropic.client.AnthropicClient;
import com.anthropic.client.okhttp.AnthropicOkHttpClient;
import com.anthropic.core.JsonValue;
import com.anthropic.core.http.StreamResponse;
import com.anthropic.errors.BadRequestException;
import com.anthropic.errors.NotFoundException;
import com.anthropic.errors.UnauthorizedException;
import com.anthropic.helpers.MessageAccumulator;
import com.anthropic.models.messages.ContentBlock;
import com.anthropic.models.messages.ContentBlockParam;
import com.anthropic.models.messages.Message;
import com.anthropic.models.messages.MessageCountTokensParams;
import com.anthropic.models.messages.MessageCreateParams;
import com.anthropic.models.messages.RawMessageStreamEvent;
import com.anthropic.models.messages.StopReason;
import com.anthropic.models.messages.Tool;
import com.anthropic.models.messages.ToolChoiceTool;
import com.anthropic.models.messages.ToolResultBlockParam;
import com.anthropic.models.messages.ToolUseBlock;
import dev.junction.gateway.support.GatewayFixture;
import dev.junction.gateway.support.Http;
import dev.junction.gateway.support.Json;
import dev.junction.gateway.support.NoErrorLogs;
import dev.junction.gateway.support.Sse;
import dev.junction.mock.MockProviderServer;
import dev.junction.mock.stats.Route;
import io.netty.handler.codec.http.HttpHeaders;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The Anthropic Messages API with the official Anthropic Java SDK as the client, routed
 * to an OpenAI-compatible provider (translated) and to an Anthropic provider (passed
 * through), both the provider emulator, and to a server that records what an Anthropic
 * provider receives.
 */
class MessagesIntegrationTests {

	private static final String KEY = "gw-messages-key";

	private static final String ANSWER = "{\"id\":\"msg_rec\",\"type\":\"message\",\"role\":\"assistant\","
			+ "\"model\":\"claude-x\",\"content\":[{\"type\":\"text\",\"text\":\"ok\",\"citations\":null}],"
			+ "\"stop_reason\":\"end_turn\",\"stop_sequence\":null,\"usage\":{\"input_tokens\":3,"
			+ "\"cache_read_input_tokens\":7,\"output_tokens\":1},\"future_field\":{\"kept\":true}}";

	@RegisterExtension
	final NoErrorLogs noErrorLogs = new NoErrorLogs();

	private static final AtomicReference<String> recordedBody = new AtomicReference<>();

	private static final AtomicReference<HttpHeaders> recordedHeaders = new AtomicReference<>();

	private static DisposableServer recorder;

	private static MockProviderServer emulator;

	private static GatewayFixture gateway;

	private static AnthropicClient client;

	@BeforeAll
	static void start() {
		recorder = HttpServer.create()
			.host("127.0.0.1")
			.port(0)
			.route((routes) -> routes.post("/v1/messages", (request, response) -> {
				recordedHeaders.set(request.requestHeaders());
				return request.receive()
					.aggregate()
					.asString()
					.doOnNext(recordedBody::set)
					.then(response.header("content-type", "application/json").sendString(Mono.just(ANSWER)).then());
			}))
			.bindNow();
		emulator = MockProviderServer.start(Map.of("junction.mock.api-keys", "sk-emu"));
		MockProviderServer truncating = MockProviderServer.start(Map.of("junction.mock.truncate-stream-after", 4));
		gateway = GatewayFixture.withKey(KEY)
			.properties("junction.gateway.cache.enabled=false",
					"junction.gateway.models.smart.targets[0]=emulator/gpt-4o-mini",
					"junction.gateway.rate-limit.requests=10000", "junction.gateway.rate-limit.tokens=50000",
					// A day's window refills a request every 8.6 s: three requests in a
					// row
					// cannot be refilled twice.
					"junction.gateway.rate-limit.window=24h")
			.openAi("emulator", emulator, "sk-emu")
			.anthropic("claude", emulator, "sk-emu")
			.openAi("cut", truncating, "sk-x")
			.anthropic("recorded", "http://127.0.0.1:" + recorder.port(), "sk-rec")
			.start();
		client = gateway.anthropicClient(KEY);
	}

	@AfterAll
	static void stop() {
		gateway.close();
		recorder.disposeNow(Duration.ofSeconds(5));
	}

	@ParameterizedTest
	@ValueSource(strings = { "emulator/gpt-4o-mini", "claude/claude-haiku-4-5", "smart" })
	void answersTheSdkWithAMessage(String model) {
		Message message = client.messages()
			.create(MessageCreateParams.builder()
				.model(model)
				.maxTokens(64)
				.system("You are terse.")
				.addUserMessage("Say hello")
				.build());
		assertThat(message.content()).hasSize(1);
		assertThat(message.content().get(0).text()).isPresent();
		assertThat(message.content().get(0).asText().text()).isNotBlank();
		assertThat(message.stopReason()).contains(StopReason.END_TURN);
		assertThat(message.usage().inputTokens()).isPositive();
		assertThat(message.usage().outputTokens()).isPositive();
		assertThat(message.id()).startsWith("msg_");
	}

	@ParameterizedTest
	@ValueSource(strings = { "emulator/gpt-4o-mini", "claude/claude-haiku-4-5" })
	void streamsTheMessagesEventSequenceToTheSdk(String model) {
		List<RawMessageStreamEvent> events = new ArrayList<>();
		MessageAccumulator accumulator = MessageAccumulator.create();
		try (StreamResponse<RawMessageStreamEvent> stream = client.messages()
			.createStreaming(
					MessageCreateParams.builder().model(model).maxTokens(64).addUserMessage("Count to five").build())) {
			stream.stream().forEach((event) -> {
				events.add(event);
				accumulator.accumulate(event);
			});
		}
		assertThat(events.get(0).isMessageStart()).isTrue();
		assertThat(events).anyMatch(RawMessageStreamEvent::isContentBlockStart);
		assertThat(events.stream().filter(RawMessageStreamEvent::isContentBlockDelta).count()).isGreaterThan(1);
		assertThat(events.get(events.size() - 2).isMessageDelta()).isTrue();
		assertThat(events.get(events.size() - 1).isMessageStop()).isTrue();
		Message message = accumulator.message();
		assertThat(message.content().get(0).asText().text()).isNotBlank();
		assertThat(message.stopReason()).contains(StopReason.END_TURN);
		assertThat(message.usage().outputTokens()).isPositive();
		assertThat(message.usage().inputTokens()).isPositive();
	}

	@ParameterizedTest
	@ValueSource(strings = { "emulator/gpt-4o-mini", "claude/claude-haiku-4-5" })
	void callsToolsAndTakesTheirResults(String model) {
		MessageCreateParams ask = MessageCreateParams.builder()
			.model(model)
			.maxTokens(256)
			.addTool(weatherTool())
			.toolChoice(ToolChoiceTool.builder().name("get_weather").build())
			.addUserMessage("Weather in Paris?")
			.build();
		Message call = client.messages().create(ask);
		assertThat(call.stopReason()).contains(StopReason.TOOL_USE);
		ToolUseBlock toolUse = call.content()
			.stream()
			.filter(ContentBlock::isToolUse)
			.findFirst()
			.orElseThrow()
			.asToolUse();
		assertThat(toolUse.name()).isEqualTo("get_weather");
		Object input = toolUse._input().asObject().orElseThrow();
		assertThat(toolUse._input().toString()).contains("city");

		MessageAccumulator accumulator = MessageAccumulator.create();
		try (StreamResponse<RawMessageStreamEvent> stream = client.messages().createStreaming(ask)) {
			stream.stream().forEach(accumulator::accumulate);
		}
		Message streamed = accumulator.message();
		assertThat(streamed.stopReason()).contains(StopReason.TOOL_USE);
		ToolUseBlock streamedUse = streamed.content()
			.stream()
			.filter(ContentBlock::isToolUse)
			.findFirst()
			.orElseThrow()
			.asToolUse();
		assertThat(streamedUse._input().asObject().orElseThrow()).isEqualTo(input);

		Message answer = client.messages()
			.create(MessageCreateParams.builder()
				.model(model)
				.maxTokens(64)
				.addTool(weatherTool())
				.addUserMessage("Weather in Paris?")
				.addMessage(call)
				.addUserMessageOfBlockParams(List.of(ContentBlockParam.ofToolResult(
						ToolResultBlockParam.builder().toolUseId(toolUse.id()).content("18 degrees, sunny").build())))
				.build());
		assertThat(answer.stopReason()).contains(StopReason.END_TURN);
		assertThat(answer.content().get(0).asText().text()).isNotBlank();
	}

	@Test
	void sendsToolsImagesAndToolResultsToAnOpenAiProviderInItsTerms() {
		emulator.resetStats();
		String body = "{\"model\":\"emulator/gpt-4o-mini\",\"max_tokens\":50,\"system\":[{\"type\":\"text\","
				+ "\"text\":\"Be brief.\",\"cache_control\":{\"type\":\"ephemeral\"}}],\"messages\":["
				+ "{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"What is this?\"},{\"type\":\"image\","
				+ "\"source\":{\"type\":\"base64\",\"media_type\":\"image/png\",\"data\":\"iVBORw0KGgo=\"}}]},"
				+ "{\"role\":\"assistant\",\"content\":[{\"type\":\"tool_use\",\"id\":\"toolu_1\",\"name\":\"look\","
				+ "\"input\":{\"zoom\":2}}]},{\"role\":\"user\",\"content\":[{\"type\":\"tool_result\","
				+ "\"tool_use_id\":\"toolu_1\",\"content\":[{\"type\":\"text\",\"text\":\"a cat\"}]}]}],"
				+ "\"tools\":[{\"name\":\"look\",\"input_schema\":{\"type\":\"object\"}}]}";
		HttpResponse<String> response = post("/v1/messages", body, Map.of("x-api-key", KEY));
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		JsonNode message = Json.parse(response.body());
		assertThat(message.path("type").asString()).isEqualTo("message");
		assertThat(message.path("stop_reason").asString()).isEqualTo("end_turn");
		assertThat(emulator.stats().route(Route.CHAT_COMPLETIONS).requests()).isEqualTo(1);
		assertThat(response.headers().firstValue("Server-Timing"))
			.hasValueSatisfying((timing) -> assertThat(timing).contains("gateway;dur=").contains("upstream;dur="));
	}

	@Test
	void passesEveryFieldAndProtocolHeaderThroughToAnAnthropicProvider() {
		String body = "{\"model\":\"recorded/claude-x\",\"max_tokens\":20,\"system\":[{\"type\":\"text\","
				+ "\"text\":\"long prompt\",\"cache_control\":{\"type\":\"ephemeral\",\"ttl\":\"1h\"}}],"
				+ "\"messages\":[{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"hi\","
				+ "\"cache_control\":{\"type\":\"ephemeral\"}},{\"type\":\"search_result\",\"source\":\"s\","
				+ "\"title\":\"t\",\"content\":[]}]}],\"thinking\":{\"type\":\"enabled\",\"budget_tokens\":1024},"
				+ "\"top_k\":5,\"some_new_field\":[1,2]}";
		HttpResponse<String> response = post("/v1/messages", body, Map.of("x-api-key", KEY, "anthropic-version",
				"2023-06-01", "anthropic-beta", "prompt-caching-2024-07-31,other-beta"));
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		assertThat(response.body()).isEqualTo(ANSWER);
		JsonNode sent = Json.parse(recordedBody.get());
		JsonNode expected = Json.parse(body);
		((tools.jackson.databind.node.ObjectNode) expected).put("model", "claude-x");
		assertThat(sent).isEqualTo(expected);
		HttpHeaders headers = recordedHeaders.get();
		assertThat(headers.get("anthropic-version")).isEqualTo("2023-06-01");
		assertThat(headers.get("anthropic-beta")).isEqualTo("prompt-caching-2024-07-31,other-beta");
		assertThat(headers.get("x-api-key")).isEqualTo("sk-rec");
		assertThat(headers.get("authorization")).isNull();
	}

	@Test
	void takesTheKeyAsXApiKeyOrBearer() {
		String body = "{\"model\":\"emulator/gpt-4o-mini\",\"max_tokens\":5,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";
		assertThat(post("/v1/messages", body, Map.of("x-api-key", KEY)).statusCode()).isEqualTo(200);
		assertThat(post("/v1/messages", body, Map.of("Authorization", "Bearer " + KEY)).statusCode()).isEqualTo(200);
		HttpResponse<String> refused = post("/v1/messages", body, Map.of("x-api-key", "wrong"));
		assertThat(refused.statusCode()).isEqualTo(401);
		assertAnthropicError(refused, "authentication_error");
		AnthropicClient stranger = AnthropicOkHttpClient.builder()
			.baseUrl(gateway.baseUrl())
			.apiKey("wrong")
			.maxRetries(0)
			.build();
		assertThatExceptionOfType(UnauthorizedException.class).isThrownBy(() -> stranger.messages()
			.create(MessageCreateParams.builder()
				.model("emulator/gpt-4o-mini")
				.maxTokens(5)
				.addUserMessage("hi")
				.build()));
	}

	@Test
	void answersClientErrorsInAnthropicsShape() {
		HttpResponse<String> noMaxTokens = post("/v1/messages",
				"{\"model\":\"emulator/gpt-4o-mini\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}",
				Map.of("x-api-key", KEY));
		assertThat(noMaxTokens.statusCode()).isEqualTo(400);
		assertThat(assertAnthropicError(noMaxTokens, "invalid_request_error").path("message").asString())
			.contains("max_tokens");
		assertAnthropicError(post("/v1/messages", "{\"model\":", Map.of("x-api-key", KEY)), "invalid_request_error");
		HttpResponse<String> topK = post("/v1/messages",
				"{\"model\":\"emulator/gpt-4o-mini\",\"max_tokens\":5,"
						+ "\"top_k\":3,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}",
				Map.of("x-api-key", KEY));
		assertThat(topK.statusCode()).isEqualTo(400);
		assertThat(assertAnthropicError(topK, "invalid_request_error").path("message").asString()).contains("top_k");
		HttpResponse<String> notAllowed = Http
			.send(HttpRequest.newBuilder(URI.create(gateway.baseUrl() + "/v1/messages"))
				.header("x-api-key", KEY)
				.GET()
				.build());
		assertThat(notAllowed.statusCode()).isEqualTo(405);
		assertAnthropicError(notAllowed, "invalid_request_error");
		assertThatExceptionOfType(NotFoundException.class)
			.isThrownBy(() -> client.messages()
				.create(MessageCreateParams.builder().model("nope/none").maxTokens(5).addUserMessage("hi").build()))
			.satisfies((error) -> assertThat(error.errorType())
				.hasValueSatisfying((type) -> assertThat(type.toString()).isEqualTo("not_found_error")));
		assertThatExceptionOfType(BadRequestException.class).isThrownBy(() -> client.messages()
			.create(MessageCreateParams.builder()
				.model("emulator/gpt-4o-mini")
				.maxTokens(0)
				.addUserMessage("hi")
				.build()));
	}

	@ParameterizedTest
	@CsvSource(delimiter = '|',
			value = { "\"tools\":{\"a\":null}|tools", "\"tools\":[null]|tools.0",
					"\"tools\":[{\"input_schema\":{}}]|tools.0.name",
					"\"tools\":[{\"name\":\"f\",\"input_schema\":[]}]|tools.0.input_schema",
					"\"tools\":[{\"name\":\"f\",\"description\":{}}]|tools.0.description",
					"\"tool_choice\":\"auto\"|tool_choice",
					"\"tools\":[{\"name\":\"f\"}],\"tool_choice\":{\"type\":\"tool\"}|tool_choice.name" })
	void refusesMalformedToolsInAnthropicsShape(String tools, String field) {
		HttpResponse<String> response = post("/v1/messages", "{\"model\":\"emulator/gpt-4o-mini\",\"max_tokens\":5,"
				+ tools + ",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}", Map.of("x-api-key", KEY));
		assertThat(response.statusCode()).isEqualTo(400);
		assertThat(assertAnthropicError(response, "invalid_request_error").path("message").asString())
			.startsWith(field + ":");
	}

	@Test
	void spendsTheKeysRateLimitBudgetsReservingMaxTokens() {
		String body = "{\"model\":\"emulator/gpt-4o-mini\",\"max_tokens\":%d,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";
		HttpResponse<String> first = post("/v1/messages", body.formatted(5), Map.of("x-api-key", KEY));
		post("/v1/messages", body.formatted(5), Map.of("x-api-key", KEY));
		HttpResponse<String> third = post("/v1/messages", body.formatted(5), Map.of("x-api-key", KEY));
		assertThat(first.statusCode()).isEqualTo(200);
		long before = Long.parseLong(first.headers().firstValue("X-RateLimit-Remaining").orElseThrow());
		assertThat(Long.parseLong(third.headers().firstValue("X-RateLimit-Remaining").orElseThrow()))
			.isLessThan(before);
		HttpResponse<String> tooMany = post("/v1/messages", body.formatted(60000), Map.of("x-api-key", KEY));
		assertThat(tooMany.statusCode()).isEqualTo(429);
		assertThat(assertAnthropicError(tooMany, "rate_limit_error").path("message").asString()).contains("max_tokens");
		assertThat(tooMany.headers().firstValue("Retry-After")).isPresent();
	}

	@Test
	void endsAStreamThatFailsMidwayWithAnErrorEvent() {
		HttpResponse<String> response = post("/v1/messages",
				"{\"model\":\"cut/gpt-4o-mini\",\"max_tokens\":50,"
						+ "\"stream\":true,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}",
				Map.of("x-api-key", KEY));
		assertThat(response.statusCode()).isEqualTo(200);
		String body = response.body();
		assertThat(body).startsWith("event: message_start\n")
			.contains("event: content_block_delta\n")
			.doesNotContain("message_stop");
		JsonNode error = Sse.lastErrorEvent(body);
		assertThat(error.path("type").asString()).isEqualTo("error");
		assertThat(error.path("error").path("type").asString()).isEqualTo("api_error");
	}

	@Test
	void countsTokensThroughAnAnthropicProviderAndEstimatesThemForOthers() {
		long counted = client.messages()
			.countTokens(MessageCountTokensParams.builder()
				.model("claude/claude-haiku-4-5")
				.addUserMessage("How many tokens is this?")
				.build())
			.inputTokens();
		assertThat(counted).isPositive();
		String body = "{\"model\":\"emulator/gpt-4o-mini\",\"messages\":[{\"role\":\"user\",\"content\":\""
				+ "a".repeat(400) + "\"}]}";
		HttpResponse<String> estimate = post("/v1/messages/count_tokens", body, Map.of("x-api-key", KEY));
		assertThat(estimate.statusCode()).isEqualTo(200);
		assertThat(estimate.headers().firstValue(MessagesHandler.TOKEN_COUNT)).contains("estimate");
		assertThat(Json.parse(estimate.body()).path("input_tokens").asLong()).isEqualTo(104);
	}

	private static Tool weatherTool() {
		return Tool.builder()
			.name("get_weather")
			.description("The weather in a city")
			.inputSchema(Tool.InputSchema.builder()
				.properties(JsonValue.from(Map.of("city", Map.of("type", "string"))))
				.addRequired("city")
				.build())
			.build();
	}

	private static JsonNode assertAnthropicError(HttpResponse<String> response, String type) {
		JsonNode body = Json.parse(response.body());
		assertThat(body.path("type").asString()).as(response.body()).isEqualTo("error");
		assertThat(body.path("error").path("type").asString()).as(response.body()).isEqualTo(type);
		assertThat(body.has("request_id")).isTrue();
		return body.path("error");
	}

	private static HttpResponse<String> post(String path, String body, Map<String, String> headers) {
		return Http.postWithHeaders(gateway.baseUrl() + path, headers, body);
	}

}
