package dev.junction.gateway.rpc;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.junction.gateway.support.Http;
import dev.junction.gateway.support.Json;
import dev.junction.gateway.support.RunningGateway;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code ai.generateText}'s {@code apiKey}: the caller's own provider key is sent instead
 * of the pool's for that call only, is cached apart, never falls back to another
 * provider, and a refusal of it is the caller's error that leaves the pool and breakers
 * alone, for OpenAI providers ({@code up}, {@code other}: {@code Authorization}) and
 * Anthropic ones ({@code claude}: {@code x-api-key}). The upstream records the key each
 * request presented.
 */
@ExtendWith(OutputCaptureExtension.class)
class CallerKeyIntegrationTests {

	private static final String POOL_KEY = "sk-pool-caller-key-tests";

	private static final String CALLER_KEY = "sk-caller-own-key-0123456789";

	private static final String REFUSED_KEY = "sk-caller-refused-key-0123456789";

	/** Each request the upstream received: its model and the key it presented. */
	private static final List<String[]> received = new CopyOnWriteArrayList<>();

	private static final AtomicInteger answers = new AtomicInteger();

	private static HttpServer upstream;

	private static RunningGateway gateway;

	@BeforeAll
	static void start() throws IOException {
		upstream = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
		upstream.createContext("/v1/chat/completions", CallerKeyIntegrationTests::answer);
		upstream.createContext("/v1/messages", CallerKeyIntegrationTests::answerMessages);
		upstream.start();
		String origin = "http://127.0.0.1:" + upstream.getAddress().getPort();
		String base = origin + "/v1";
		gateway = RunningGateway.start(List.of("junction.gateway.cache.enabled=true",
				"junction.gateway.providers.up.type=openai", "junction.gateway.providers.up.base-url=" + base,
				"junction.gateway.providers.up.keys[0].value=" + POOL_KEY,
				"junction.gateway.providers.other.type=openai", "junction.gateway.providers.other.base-url=" + base,
				"junction.gateway.providers.other.keys[0].value=" + POOL_KEY,
				"junction.gateway.models.chain.targets[0]=up/down", "junction.gateway.models.chain.targets[1]=other/m",
				"junction.gateway.providers.claude.type=anthropic",
				"junction.gateway.providers.claude.base-url=" + origin,
				"junction.gateway.providers.claude.keys[0].value=" + POOL_KEY,
				"junction.gateway.models.claude-chain.targets[0]=claude/down",
				"junction.gateway.models.claude-chain.targets[1]=up/m", "junction.gateway.providers.local.type=mock",
				"junction.gateway.providers.local.models[0]=echo-1",
				"resilience4j.retry.configs.default.max-attempts=1"));
	}

	@AfterAll
	static void stop() {
		gateway.close();
		upstream.stop(0);
	}

	@BeforeEach
	void forget() {
		received.clear();
	}

	/**
	 * 401 for the refused key, 503 for model {@code down}, otherwise a numbered answer.
	 */
	private static void answer(HttpExchange exchange) throws IOException {
		JsonNode request = Json.parse(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
		String authorization = exchange.getRequestHeaders().getFirst("Authorization");
		String key = (authorization != null) ? authorization.substring("Bearer ".length()) : null;
		String model = request.path("model").asString();
		received.add(new String[] { model, key });
		int status = 200;
		String body;
		if (REFUSED_KEY.equals(key)) {
			status = 401;
			body = "{\"error\":{\"message\":\"Incorrect API key provided: " + key
					+ "\",\"type\":\"invalid_request_error\",\"code\":\"invalid_api_key\"}}";
		}
		else if ("down".equals(model)) {
			status = 503;
			body = "{\"error\":{\"message\":\"overloaded\",\"type\":\"server_error\"}}";
		}
		else {
			body = "{\"id\":\"c\",\"object\":\"chat.completion\",\"created\":1,\"model\":\"" + model
					+ "\",\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\"answer "
					+ answers.incrementAndGet() + "\"},\"finish_reason\":\"stop\"}],"
					+ "\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":2,\"total_tokens\":5}}";
		}
		send(exchange, status, body);
	}

	/**
	 * Anthropic's Messages API, answering as {@link #answer} does, with the key from
	 * {@code x-api-key}.
	 */
	private static void answerMessages(HttpExchange exchange) throws IOException {
		JsonNode request = Json.parse(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
		String key = exchange.getRequestHeaders().getFirst("x-api-key");
		String model = request.path("model").asString();
		received.add(new String[] { model, key });
		int status = 200;
		String body;
		if (REFUSED_KEY.equals(key)) {
			status = 401;
			body = "{\"type\":\"error\",\"error\":{\"type\":\"authentication_error\",\"message\":\"invalid x-api-key "
					+ key + "\"}}";
		}
		else if ("down".equals(model)) {
			status = 503;
			body = "{\"type\":\"error\",\"error\":{\"type\":\"api_error\",\"message\":\"overloaded\"}}";
		}
		else {
			body = "{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"" + model
					+ "\",\"content\":[{\"type\":\"text\",\"text\":\"answer " + answers.incrementAndGet()
					+ "\"}],\"stop_reason\":\"end_turn\",\"stop_sequence\":null,"
					+ "\"usage\":{\"input_tokens\":3,\"output_tokens\":2}}";
		}
		send(exchange, status, body);
	}

	private static void send(HttpExchange exchange, int status, String body) throws IOException {
		byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
		exchange.getResponseHeaders().set("Content-Type", "application/json");
		exchange.sendResponseHeaders(status, bytes.length);
		exchange.getResponseBody().write(bytes);
		exchange.close();
	}

	@ParameterizedTest
	@ValueSource(strings = { "up/m", "claude/m" })
	void theCallersKeyIsSentForItsCallOnlyAndCachedApart(String model) {
		String params = "\"content\":\"cache apart\",\"model\":\"" + model + "\",\"temperature\":0";
		JsonNode own = generate(params + ",\"apiKey\":\"" + CALLER_KEY + "\"");
		assertThat(keysSent()).containsExactly(CALLER_KEY);

		JsonNode pooled = generate(params);
		assertThat(keysSent()).containsExactly(CALLER_KEY, POOL_KEY);
		assertThat(pooled.at("/result/text").asString()).isNotEqualTo(own.at("/result/text").asString());

		assertThat(generate(params).at("/result/text").asString()).isEqualTo(pooled.at("/result/text").asString());
		assertThat(generate(params + ",\"apiKey\":\"" + CALLER_KEY + "\"").at("/result/text").asString())
			.isEqualTo(own.at("/result/text").asString());
		assertThat(keysSent()).as("the repeated calls are answered from the cache").hasSize(2);
	}

	@ParameterizedTest
	@ValueSource(strings = { "up/m", "claude/m" })
	void aRefusedCallersKeyIsTheCallersErrorAndLeavesThePoolAndBreakersAlone(String model, CapturedOutput output) {
		CircuitBreakerRegistry breakers = gateway.context().getBean(CircuitBreakerRegistry.class);
		generate("\"content\":\"warm up\",\"model\":\"" + model + "\"");
		String before = breakers(breakers);
		received.clear();
		for (int i = 0; i < 12; i++) {
			JsonNode error = generate(
					"\"content\":\"refused " + i + "\",\"model\":\"" + model + "\",\"apiKey\":\"" + REFUSED_KEY + "\"")
				.get("error");
			assertThat(error.get("code").asInt()).isEqualTo(-32602);
			assertThat(error.at("/data/param").asString()).isEqualTo("apiKey");
			assertThat(error.at("/data/message").asString()).contains("refused the 'apiKey'");
			assertThat(error.toString()).doesNotContain(REFUSED_KEY, "gateway's credentials");
		}
		assertThat(keysSent()).hasSize(12).containsOnly(REFUSED_KEY);

		JsonNode pooled = generate("\"content\":\"still served\",\"model\":\"" + model + "\"");
		assertThat(pooled.at("/result/success").asBoolean()).as(pooled.toString()).isTrue();
		assertThat(keysSent()).last().isEqualTo(POOL_KEY);
		assertThat(breakers(breakers)).as("breakers after the refusals and one pooled call").isEqualTo(before);
		assertThat(breakers.getAllCircuitBreakers()).as("only the pool's keys have breakers")
			.allSatisfy((breaker) -> assertThat(breaker.getName()).matches("(up|other|claude):key\\d+"));
		assertThat(output.getAll()).doesNotContain(REFUSED_KEY, CALLER_KEY);
	}

	@ParameterizedTest
	@ValueSource(strings = { "chain", "claude-chain" })
	void theCallersKeyNeverFallsBackToAnotherProvider(String chain) {
		JsonNode error = generate(
				"\"content\":\"no fallback\",\"model\":\"" + chain + "\",\"apiKey\":\"" + CALLER_KEY + "\"")
			.get("error");
		assertThat(error).as("the first target's 503 is the answer").isNotNull();
		assertThat(received).extracting((request) -> request[0]).containsOnly("down");

		received.clear();
		JsonNode pooled = generate("\"content\":\"fallback\",\"model\":\"" + chain + "\"");
		assertThat(pooled.at("/result/success").asBoolean()).isTrue();
		assertThat(received).extracting((request) -> request[0]).containsExactly("down", "m");
	}

	@Test
	void providersThatCannotTakeACallersKeyRefuseIt() {
		JsonNode error = generate("\"content\":\"Hi\",\"provider\":\"local\",\"apiKey\":\"" + CALLER_KEY + "\"")
			.get("error");
		assertThat(error.get("code").asInt()).isEqualTo(-32602);
		assertThat(error.at("/data/message").asString()).contains("does not take a caller's own key",
				"ai.listProvidersBYOK");
		assertThat(received).isEmpty();

		JsonNode byok = call("ai.listProvidersBYOK", "{}").get("result");
		assertThat(byok.get("providers").valueStream().map((provider) -> provider.get("name").asString()))
			.containsExactlyInAnyOrder("up", "other", "claude");
	}

	@Test
	void aGatewayThatTakesNoCallersKeysRefusesApiKey() {
		try (RunningGateway closed = RunningGateway.start(List.of("junction.gateway.rpc.byok=false",
				"junction.gateway.providers.up.type=openai",
				"junction.gateway.providers.up.base-url=http://127.0.0.1:" + upstream.getAddress().getPort() + "/v1",
				"junction.gateway.providers.up.keys[0].value=" + POOL_KEY))) {
			JsonNode error = Json.parse(Http.post(closed.baseUrl() + "/rpc", null,
					"{\"jsonrpc\":\"2.0\",\"method\":\"ai.generateText\",\"params\":{\"content\":\"Hi\",\"model\":\"up/m\","
							+ "\"apiKey\":\"" + CALLER_KEY + "\"},\"id\":1}")
				.body()).get("error");
			assertThat(error.get("code").asInt()).isEqualTo(-32602);
			assertThat(error.at("/data/param").asString()).isEqualTo("apiKey");
			JsonNode byok = Json.parse(Http.post(closed.baseUrl() + "/rpc", null,
					"{\"jsonrpc\":\"2.0\",\"method\":\"ai.listProvidersBYOK\",\"id\":1}")
				.body());
			assertThat(byok.at("/result/providers").isEmpty()).isTrue();
		}
		assertThat(received).isEmpty();
	}

	/** Each breaker's name, state and failed calls. */
	private static String breakers(CircuitBreakerRegistry breakers) {
		return String.join(",",
				breakers.getAllCircuitBreakers()
					.stream()
					.map((breaker) -> breaker.getName() + "=" + breaker.getState() + "/"
							+ breaker.getMetrics().getNumberOfFailedCalls())
					.sorted()
					.toList());
	}

	private static List<String> keysSent() {
		return received.stream().map((request) -> request[1]).toList();
	}

	private static JsonNode generate(String params) {
		return call("ai.generateText", "{" + params + "}");
	}

	private static JsonNode call(String method, String params) {
		HttpResponse<String> response = Http.post(gateway.baseUrl() + "/rpc", null,
				"{\"jsonrpc\":\"2.0\",\"method\":\"" + method + "\",\"params\":" + params + ",\"id\":1}");
		return Json.parse(response.body());
	}

}
