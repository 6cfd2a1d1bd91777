package dev.junction.gateway.responses;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import com.openai.client.OpenAIClient;
import com.openai.core.JsonValue;
import com.openai.core.http.StreamResponse;
import com.openai.errors.NotFoundException;
import com.openai.helpers.ResponseAccumulator;
import com.openai.models.responses.Response;
import com.openai.models.responses.ResponseCreateParams;
import com.openai.models.responses.ResponseStreamEvent;
import dev.junction.gateway.metrics.GatewayMetrics;
import dev.junction.gateway.support.GatewayFixture;
import dev.junction.gateway.support.Http;
import dev.junction.gateway.support.Json;
import dev.junction.gateway.support.NoErrorLogs;
import dev.junction.gateway.support.Sse;
import dev.junction.mock.MockProviderServer;
import dev.junction.mock.stats.Route;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * The Responses API passed through to OpenAI-compatible providers that serve it
 * ({@code native-responses}), with the official OpenAI Java SDK against the provider
 * emulator, and raw requests against a server that records what such a provider receives.
 */
class NativeResponsesIntegrationTests {

	private static final String KEY = "gw-native-responses-key";

	/**
	 * The recording upstream's stream: the events as it sends them, fields unknown to the
	 * SDK included.
	 */
	private static final List<String> STREAM = List.of(
			"{\"type\":\"response.created\",\"sequence_number\":0,\"response\":{\"id\":\"resp_rec\",\"object\":\"response\","
					+ "\"status\":\"in_progress\",\"output\":[]}}",
			"{\"type\":\"response.output_text.delta\",\"sequence_number\":1,\"item_id\":\"msg_rec\",\"output_index\":0,"
					+ "\"content_index\":0,\"delta\":\"Hi\",\"x_vendor_hint\":{\"kept\":true}}",
			"{\"type\":\"response.completed\",\"sequence_number\":2,\"response\":{\"id\":\"resp_rec\",\"object\":\"response\","
					+ "\"status\":\"completed\",\"output\":[],\"usage\":{\"input_tokens\":41,\"input_tokens_details\":"
					+ "{\"cached_tokens\":8},\"output_tokens\":13,\"output_tokens_details\":{\"reasoning_tokens\":5},"
					+ "\"total_tokens\":54}}}");

	/**
	 * A stream whose response fails: the events end normally, with
	 * {@code response.failed}.
	 */
	private static final List<String> FAILED_STREAM = List.of(
			"{\"type\":\"response.created\",\"sequence_number\":0,\"response\":{\"id\":\"resp_fail\",\"object\":"
					+ "\"response\",\"status\":\"in_progress\",\"output\":[]}}",
			"{\"type\":\"response.failed\",\"sequence_number\":1,\"response\":{\"id\":\"resp_fail\",\"object\":"
					+ "\"response\",\"status\":\"failed\",\"error\":{\"code\":\"server_error\",\"message\":"
					+ "\"The model failed.\"},\"output\":[]}}");

	private static final String ANSWER = "{\"id\":\"resp_rec\",\"object\":\"response\",\"status\":\"completed\","
			+ "\"previous_response_id\":\"resp_before\",\"output\":[{\"type\":\"message\",\"id\":\"msg_rec\",\"role\":"
			+ "\"assistant\",\"status\":\"completed\",\"content\":[{\"type\":\"output_text\",\"text\":\"Hi\","
			+ "\"annotations\":[]}]}],\"x_vendor_field\":[1,2],\"usage\":{\"input_tokens\":37,\"input_tokens_details\":"
			+ "{\"cached_tokens\":0},\"output_tokens\":11,\"output_tokens_details\":{\"reasoning_tokens\":0},"
			+ "\"total_tokens\":48}}";

	private static final String NOT_FOUND = "{\"error\":{\"message\":\"Previous response with id 'resp_gone' not found.\","
			+ "\"type\":\"invalid_request_error\",\"param\":\"previous_response_id\",\"code\":\"previous_response_not_found\"}}";

	@RegisterExtension
	final NoErrorLogs noErrorLogs = new NoErrorLogs();

	private static final AtomicReference<String> recordedBody = new AtomicReference<>();

	private static final AtomicReference<String> recordedPath = new AtomicReference<>();

	private static final AtomicReference<String> recordedAuthorization = new AtomicReference<>();

	private static DisposableServer recorder;

	private static DisposableServer closed;

	private static MockProviderServer emulator;

	private static GatewayFixture gateway;

	private static OpenAIClient client;

	@BeforeAll
	static void start() {
		recorder = HttpServer.create().host("127.0.0.1").port(0).handle((request, response) -> {
			recordedPath.set(request.uri());
			recordedAuthorization.set(request.requestHeaders().get("authorization"));
			return request.receive().aggregate().asString().flatMap((body) -> {
				recordedBody.set(body);
				JsonNode sent = Json.parse(body);
				if (sent.path("previous_response_id").asString("").equals("resp_gone")) {
					return response.status(404)
						.header("content-type", "application/json")
						.sendString(Mono.just(NOT_FOUND))
						.then();
				}
				if (sent.path("stream").asBoolean(false)) {
					StringBuilder events = new StringBuilder();
					for (String event : sent.path("input").asString("").equals("fail") ? FAILED_STREAM : STREAM) {
						events.append("event: ")
							.append(Json.parse(event).path("type").asString())
							.append("\ndata: ")
							.append(event)
							.append("\n\n");
					}
					return response.header("content-type", "text/event-stream")
						.sendString(Mono.just(events.toString()))
						.then();
				}
				return response.header("content-type", "application/json").sendString(Mono.just(ANSWER)).then();
			});
		}).bindNow();
		closed = HttpServer.create().host("127.0.0.1").port(0).bindNow();
		int closedPort = closed.port();
		closed.disposeNow(Duration.ofSeconds(5));
		emulator = MockProviderServer.start(Map.of("junction.mock.api-keys", "sk-emu"));
		MockProviderServer truncating = MockProviderServer.start(Map.of("junction.mock.truncate-stream-after", 4));
		gateway = GatewayFixture.withKey(KEY)
			.properties("junction.gateway.cache.enabled=true", "resilience4j.retry.configs.default.max-attempts=1",
					"junction.gateway.models.chain.targets[0]=gone/gpt-4o-mini",
					"junction.gateway.models.chain.targets[1]=translated/gpt-4o-mini")
			.openAi("native", emulator, "sk-emu")
			.properties("junction.gateway.providers.native.native-responses=true")
			.openAi("translated", emulator, "sk-emu")
			.openAi("recorded", "http://127.0.0.1:" + recorder.port() + "/v1", "sk-rec")
			.properties("junction.gateway.providers.recorded.native-responses=true")
			.openAi("gone", "http://127.0.0.1:" + closedPort + "/v1", "sk-gone")
			.properties("junction.gateway.providers.gone.native-responses=true")
			.openAi("cut", truncating, "sk-x")
			.properties("junction.gateway.providers.cut.native-responses=true")
			.start();
		client = gateway.openAiClient(KEY);
	}

	@AfterAll
	static void stop() {
		gateway.close();
		recorder.disposeNow(Duration.ofSeconds(5));
	}

	@BeforeEach
	void resetStats() {
		emulator.resetStats();
	}

	@Test
	void passesAResponseThroughToAProviderThatServesResponses() {
		Response response = client.responses()
			.create(ResponseCreateParams.builder().model("native/gpt-4o-mini").input("Say hello").build());

		assertThat(response.status())
			.hasValueSatisfying((status) -> assertThat(status.toString()).isEqualTo("completed"));
		assertThat(response.output().get(0).asMessage().content().get(0).asOutputText().text()).isNotBlank();
		assertThat(response.usage()).hasValueSatisfying((usage) -> assertThat(usage.outputTokens()).isPositive());
		assertThat(emulator.stats().route(Route.RESPONSES).requests()).isEqualTo(1);
		assertThat(emulator.stats().route(Route.CHAT_COMPLETIONS).requests()).isZero();
	}

	@Test
	void streamsTheProvidersResponsesEventsToTheSdk() {
		ResponseAccumulator accumulator = ResponseAccumulator.create();
		StringBuilder deltas = new StringBuilder();
		List<ResponseStreamEvent> events = new ArrayList<>();
		try (StreamResponse<ResponseStreamEvent> stream = client.responses()
			.createStreaming(
					ResponseCreateParams.builder().model("native/gpt-4o-mini").input("Count to five").build())) {
			stream.stream().forEach((event) -> {
				events.add(event);
				accumulator.accumulate(event);
				event.outputTextDelta().ifPresent((delta) -> deltas.append(delta.delta()));
			});
		}

		assertThat(events.get(0).isCreated()).isTrue();
		assertThat(events.get(events.size() - 1).isCompleted()).isTrue();
		Response response = accumulator.response();
		assertThat(response.output().get(0).asMessage().content().get(0).asOutputText().text()).isNotBlank()
			.isEqualTo(deltas.toString());
		assertThat(emulator.stats().route(Route.RESPONSES).streams()).isEqualTo(1);
		assertThat(emulator.stats().route(Route.CHAT_COMPLETIONS).requests()).isZero();
	}

	@Test
	void sendsTheClientsBodyUnchangedButForTheModelAndRelaysTheAnswerAsSent() {
		String body = "{\"model\":\"recorded/gpt-passed\",\"input\":\"again\",\"previous_response_id\":\"resp_before\","
				+ "\"tools\":[{\"type\":\"web_search\"}],\"store\":true,\"x_new_field\":{\"nested\":[1,\"two\"]}}";
		HttpResponse<String> response = post(body);

		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		assertThat(response.body()).isEqualTo(ANSWER);
		assertThat(recordedPath.get()).isEqualTo("/v1/responses");
		assertThat(recordedAuthorization.get()).isEqualTo("Bearer sk-rec");
		ObjectNode expected = (ObjectNode) Json.parse(body);
		expected.put("model", "gpt-passed");
		assertThat(Json.parse(recordedBody.get())).isEqualTo(expected);
		// Recorded as the exchange ends, which may be just after the client has its
		// answer.
		await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
			assertThat(tokens("gpt-passed", "input")).isEqualTo(37);
			assertThat(tokens("gpt-passed", "output")).isEqualTo(11);
		});
	}

	@Test
	void relaysTheProvidersStreamEventByEventAndReadsItsUsage() {
		HttpResponse<String> response = post("{\"model\":\"recorded/gpt-stream\",\"input\":\"hi\",\"stream\":true}");

		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.headers().firstValue("content-type").orElseThrow()).startsWith("text/event-stream");
		assertThat(Sse.data(response.body())).isEqualTo(STREAM);
		assertThat(Sse.events(response.body())).containsExactly("response.created", "response.output_text.delta",
				"response.completed");
		assertThat(Json.parse(recordedBody.get()).path("model").asString()).isEqualTo("gpt-stream");
		// Recorded as the exchange ends, which may be just after the client has its
		// answer.
		await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
			assertThat(tokens("gpt-stream", "input")).isEqualTo(41);
			assertThat(tokens("gpt-stream", "output")).isEqualTo(13);
		});
	}

	@Test
	void relaysTheProvidersErrorsInOpenAisShape() {
		HttpResponse<String> response = post(
				"{\"model\":\"recorded/gpt-x\",\"input\":\"again\"," + "\"previous_response_id\":\"resp_gone\"}");

		assertThat(response.statusCode()).isEqualTo(404);
		JsonNode error = Json.parse(response.body()).path("error");
		assertThat(error.path("message").asString()).isEqualTo("Previous response with id 'resp_gone' not found.");
		assertThat(error.path("type").asString()).isEqualTo("invalid_request_error");
		assertThat(error.path("param").asString()).isEqualTo("previous_response_id");
		assertThat(error.path("code").asString()).isEqualTo("previous_response_not_found");
		assertThatExceptionOfType(NotFoundException.class).isThrownBy(() -> client.responses()
			.create(ResponseCreateParams.builder()
				.model("recorded/gpt-x")
				.input("again")
				.previousResponseId("resp_gone")
				.build()));
	}

	@Test
	void fallsBackFromAProviderThatServesResponsesToOneThatIsTranslatedFor() {
		Response response = client.responses()
			.create(ResponseCreateParams.builder().model("chain").input("Say hello").build());

		assertThat(response.output().get(0).asMessage().content().get(0).asOutputText().text()).isNotBlank();
		assertThat(emulator.stats().route(Route.CHAT_COMPLETIONS).requests()).isEqualTo(1);
		assertThat(emulator.stats().route(Route.RESPONSES).requests()).isZero();
	}

	@Test
	void refusesStoredStateOnlyWhereTheRequestIsTranslated() {
		HttpResponse<String> translated = post("{\"model\":\"translated/gpt-4o-mini\",\"input\":\"again\","
				+ "\"previous_response_id\":\"resp_before\"}");
		assertThat(translated.statusCode()).isEqualTo(400);
		assertThat(Json.parse(translated.body()).path("error").path("param").asString())
			.isEqualTo("previous_response_id");
		assertThat(emulator.stats().route(Route.CHAT_COMPLETIONS).requests()).isZero();

		HttpResponse<String> passed = post(
				"{\"model\":\"recorded/gpt-x\",\"input\":\"again\"," + "\"previous_response_id\":\"resp_before\"}");
		assertThat(passed.statusCode()).isEqualTo(200);
		assertThat(Json.parse(recordedBody.get()).path("previous_response_id").asString()).isEqualTo("resp_before");
	}

	@Test
	void endsAPassedThroughStreamThatFailsMidwayWithAnErrorEventNumberedAfterTheLast() {
		HttpResponse<String> response = post("{\"model\":\"cut/gpt-4o-mini\",\"input\":\"hi\",\"stream\":true}");

		assertThat(response.statusCode()).isEqualTo(200);
		String body = response.body();
		assertThat(body).startsWith("event: response.created\n").doesNotContain("response.completed");
		JsonNode error = Sse.lastErrorEvent(body);
		assertThat(error.path("message").asString()).isNotBlank();
		assertThat(Sse.assertNumberedFromZero(body)).isEqualTo(5);
	}

	@Test
	void relaysAFailedResponseAsSentAndCountsItAsAnUpstreamError() {
		HttpResponse<String> response = post("{\"model\":\"recorded/gpt-failing\",\"input\":\"fail\",\"stream\":true}");

		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(Sse.data(response.body())).isEqualTo(FAILED_STREAM);
		await().atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> assertThat(Http.get(gateway.baseUrl() + "/actuator/prometheus").body())
				.containsPattern("junction_gateway_requests_seconds_count\\{[^}]*model=\"gpt-failing\"[^}]*"
						+ "outcome=\"upstream_error\"[^}]*status=\"500\"[^}]*} 1")
				.containsPattern(
						"gen_ai_client_operation_duration_seconds_count\\{[^}]*error_type=\"upstream_error\"[^}]*"
								+ "gen_ai_request_model=\"gpt-failing\"[^}]*} 1")
				.doesNotContainPattern("junction_gateway_requests_seconds_count\\{[^}]*model=\"gpt-failing\"[^}]*"
						+ "outcome=\"success\""));
	}

	@Test
	void neverCachesAPassedThroughResponse() {
		String body = "{\"model\":\"native/gpt-4o-mini\",\"input\":\"Say hello\",\"temperature\":0}";
		HttpResponse<String> first = post(body);
		HttpResponse<String> second = post(body);

		assertThat(first.statusCode()).as(first.body()).isEqualTo(200);
		assertThat(second.statusCode()).as(second.body()).isEqualTo(200);
		assertThat(Json.parse(second.body()).path("id").asString())
			.isNotEqualTo(Json.parse(first.body()).path("id").asString());
		assertThat(emulator.stats().route(Route.RESPONSES).requests()).isEqualTo(2);

		// The same request translated to a chat completion is cached.
		String translated = body.replace("native/", "translated/");
		assertThat(post(translated).statusCode()).isEqualTo(200);
		assertThat(post(translated).statusCode()).isEqualTo(200);
		assertThat(emulator.stats().route(Route.CHAT_COMPLETIONS).requests()).isEqualTo(1);
	}

	@Test
	void sdkFieldsUnknownToTheGatewayReachTheProvider() {
		client.responses()
			.create(ResponseCreateParams.builder()
				.model("recorded/gpt-x")
				.input("hi")
				.putAdditionalBodyProperty("x_sdk_extra", JsonValue.from(Map.of("a", 1)))
				.build());
		assertThat(Json.parse(recordedBody.get()).path("x_sdk_extra").path("a").asInt()).isEqualTo(1);
	}

	private static double tokens(String model, String type) {
		MeterRegistry registry = gateway.context().getBean(MeterRegistry.class);
		return registry.get(GatewayMetrics.TOKEN_USAGE)
			.tag("gen_ai.request.model", model)
			.tag("gen_ai.token.type", type)
			.summary()
			.totalAmount();
	}

	private static HttpResponse<String> post(String body) {
		return gateway.post("/v1/responses", KEY, body);
	}

}
