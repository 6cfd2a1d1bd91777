package dev.junction.gateway;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.junction.gateway.support.Http;
import dev.junction.gateway.support.RedisServer;
import dev.junction.gateway.support.RunningGateway;
import dev.junction.mock.MockProviderServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Drives every error path of the gateway with recognisable secrets (gateway keys, the key
 * a client sends, the provider key, the Redis password) and prompt text, against an
 * upstream that echoes the key it receives in its errors, and checks that none of them
 * appears in any answer, in the logs (at DEBUG for the gateway, access log on) or in the
 * Prometheus scrape.
 */
@ExtendWith(OutputCaptureExtension.class)
class SecretsNeverLeakIntegrationTests {

	private static final String GATEWAY_KEY = "gk-SECRET-GATEWAY-7f3a9";

	private static final String ADMIN_KEY = "gk-SECRET-ADMIN-51c2e";

	private static final String WRONG_KEY = "gk-SECRET-WRONG-c0ffee";

	private static final String PROVIDER_KEY = "sk-SECRET-PROVIDER-90d1b";

	private static final String REDIS_PASSWORD = "REDIS-SECRET-b33f";

	private static final String PROMPT = "promptSecretTangerine4412";

	private static final List<String> SECRETS = List.of(GATEWAY_KEY, ADMIN_KEY, WRONG_KEY, PROVIDER_KEY, REDIS_PASSWORD,
			PROMPT, "SECRET-GATEWAY", "SECRET-ADMIN", "SECRET-WRONG", "SECRET-PROVIDER", "Tangerine");

	private static HttpServer hostile;

	private static MockProviderServer slow;

	private static RedisServer redis;

	private static RunningGateway gateway;

	@BeforeAll
	static void start() throws Exception {
		hostile = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
		hostile.createContext("/v1/chat/completions", SecretsNeverLeakIntegrationTests::hostileAnswer);
		hostile.start();
		slow = MockProviderServer.start(Map.of("junction.mock.latency-ms", 3000));
		int closed;
		try (ServerSocket socket = new ServerSocket(0)) {
			closed = socket.getLocalPort();
		}
		List<String> properties = new ArrayList<>(List.of("junction.gateway.auth.keys[0]=" + GATEWAY_KEY,
				"junction.gateway.auth.admin-keys[0]=" + ADMIN_KEY, "junction.gateway.http.max-body-size=4KB",
				"junction.gateway.rate-limit.requests=100000", "junction.gateway.cache.enabled=true",
				"junction.gateway.calculator.address=static://127.0.0.1:" + closed,
				"resilience4j.retry.configs.default.max-attempts=2",
				"resilience4j.retry.configs.default.wait-duration=10ms", "logging.level.dev.junction=debug",
				"logging.level.dev.junction.gateway.access=info"));
		properties.addAll(provider("hostile", "http://127.0.0.1:" + hostile.getAddress().getPort() + "/v1"));
		properties.addAll(provider("refusing", "http://127.0.0.1:" + hostile.getAddress().getPort() + "/v1"));
		properties.addAll(provider("steady", "http://127.0.0.1:" + hostile.getAddress().getPort() + "/v1"));
		properties.addAll(provider("slow", slow.openAiBaseUrl()));
		properties.add("junction.gateway.providers.slow.timeout=300ms");
		properties.addAll(provider("gone", "http://127.0.0.1:" + closed + "/v1"));
		if (RedisServer.available()) {
			redis = RedisServer.start(REDIS_PASSWORD);
			properties.addAll(List.of("spring.data.redis.url=" + redis.url(), "spring.data.redis.timeout=300ms"));
		}
		gateway = RunningGateway.start(properties);
	}

	@AfterAll
	static void stop() throws Exception {
		gateway.close();
		hostile.stop(0);
		slow.close();
		if (redis != null) {
			redis.close();
		}
	}

	private static List<String> provider(String name, String baseUrl) {
		return List.of("junction.gateway.providers." + name + ".type=openai",
				"junction.gateway.providers." + name + ".base-url=" + baseUrl,
				"junction.gateway.providers." + name + ".keys[0].value=" + PROVIDER_KEY);
	}

	@Test
	void authenticationFailuresNeverEchoTheKeySent(CapturedOutput output) throws Exception {
		List<HttpResponse<String>> responses = new ArrayList<>();
		for (String authorization : new String[] { null, "Bearer " + WRONG_KEY, WRONG_KEY }) {
			responses.add(expect(401, post("/v1/chat/completions", authorization, chat("hostile/status-400"))));
			responses.add(expect(401, post("/rpc", authorization, rpc("ai.generateText", PROMPT))));
			responses
				.add(expect(401, post("/trpc/ai.generateText", authorization, "{\"content\":\"" + PROMPT + "\"}")));
		}
		responses.add(post("/rpc", "Bearer " + GATEWAY_KEY,
				"{\"jsonrpc\":\"2.0\",\"method\":\"admin.healthCheck\",\"id\":1}"));
		assertThat(responses.get(responses.size() - 1).body()).contains("-32002");
		assertNoSecrets(output, responses);
	}

	@Test
	void malformedAndOversizedBodiesNeverEchoThePrompt(CapturedOutput output) throws Exception {
		String malformed = "{\"model\":\"hostile/status-400\",\"messages\":[{\"role\":\"user\",\"content\":" + PROMPT
				+ "}]}";
		String key = "Bearer " + GATEWAY_KEY;
		List<HttpResponse<String>> responses = new ArrayList<>();
		responses.add(expect(400, post("/v1/chat/completions", key, malformed)));
		responses
			.add(expect(400, post("/v1/chat/completions", key, "{\"model\":\"hostile/x\",\"messages\":" + PROMPT)));
		responses.add(post("/rpc", key, "{\"jsonrpc\":\"2.0\",\"method\":\"ai.generateText\",\"params\":{\"content\":"
				+ PROMPT + "},\"id\":1}"));
		assertThat(responses.get(responses.size() - 1).body()).contains("-32700");
		responses.add(post("/trpc/ai.generateText", key, "{\"content\":" + PROMPT + "}"));
		responses.add(
				get("/trpc/system.health?input=" + URLEncoder.encode("{\"x\":" + PROMPT, StandardCharsets.UTF_8), key));
		String oversized = chat("hostile/status-400").replace(PROMPT, PROMPT.repeat(400));
		responses.add(expect(413, post("/v1/chat/completions", key, oversized)));
		responses.add(expect(413, post("/rpc", key, rpc("ai.generateText", PROMPT.repeat(400)))));
		assertNoSecrets(output, responses);
	}

	@Test
	void upstreamFailuresNeverEchoTheProviderKey(CapturedOutput output) throws Exception {
		String key = "Bearer " + GATEWAY_KEY;
		List<HttpResponse<String>> responses = new ArrayList<>();
		for (int status : new int[] { 400, 404, 422, 429, 500, 503 }) {
			HttpResponse<String> response = post("/v1/chat/completions", key, chat("hostile/status-" + status));
			assertThat(response.statusCode()).as(response.body()).isGreaterThanOrEqualTo(400);
			responses.add(response);
		}
		responses.add(expect(502, post("/v1/chat/completions", key, chat("refusing/status-401"))));
		responses.add(expect(503, post("/v1/chat/completions", key, chat("refusing/status-401"))));
		responses.add(post("/v1/chat/completions", key, chat("hostile/garbage")));
		responses.add(post("/v1/chat/completions", key,
				chat("hostile/stream-error").replaceFirst("\\{", "{\"stream\":true,")));
		responses.add(
				post("/v1/chat/completions", key, chat("hostile/status-500").replaceFirst("\\{", "{\"stream\":true,")));
		responses.add(expect(504, post("/v1/chat/completions", key, chat("slow/gpt-4o-mini"))));
		responses.add(expect(502, post("/v1/chat/completions", key, chat("gone/gpt-4o-mini"))));
		responses.add(post("/rpc", key,
				rpc("ai.generateText", PROMPT).replace("\"content\"", "\"model\":\"hostile/status-500\",\"content\"")));
		responses.add(post("/trpc/ai.generateText", key,
				"{\"content\":\"" + PROMPT + "\",\"model\":\"hostile/status-403\"}"));
		responses
			.add(post("/rpc", key, "{\"jsonrpc\":\"2.0\",\"method\":\"calculator.add\",\"params\":[1,2],\"id\":2}"));
		for (HttpResponse<String> response : responses) {
			assertThat(response.body()).doesNotContain("Exception").doesNotContain("\tat ");
		}
		assertNoSecrets(output, responses);
	}

	@Test
	void redisFaultsNeverLeakItsPasswordOrPrompts(CapturedOutput output) throws Exception {
		org.junit.jupiter.api.Assumptions.assumeTrue(redis != null, "redis-server is not installed");
		String key = "Bearer " + GATEWAY_KEY;
		String deterministic = chat("steady/ok").replaceFirst("\\{", "{\"temperature\":0,");
		List<HttpResponse<String>> responses = new ArrayList<>();
		responses.add(expect(200, post("/v1/chat/completions", key, deterministic)));
		responses.add(expect(200, post("/v1/chat/completions", key, deterministic)));
		assertThat(responses.get(1).headers().firstValue("x-junction-cache")).hasValue("HIT");
		redis.close();
		responses.add(expect(200, post("/v1/chat/completions", key, deterministic.replace(PROMPT, PROMPT + "-2"))));
		responses.add(expect(200, post("/v1/chat/completions", key, deterministic.replace(PROMPT, PROMPT + "-3"))));
		assertThat(Http.get(gateway.baseUrl() + "/actuator/prometheus").body())
			.containsPattern("junction_cache_store_errors_total\\{[^}]*} [1-9]");
		assertNoSecrets(output, responses);
	}

	private static void assertNoSecrets(CapturedOutput output, List<HttpResponse<String>> responses)
			throws InterruptedException {
		// Log lines written as a response completes may follow it by a moment.
		Thread.sleep(300);
		List<String> texts = new ArrayList<>();
		for (HttpResponse<String> response : responses) {
			texts.add(response.statusCode() + " " + response.headers().map() + " " + response.body());
		}
		texts.add(Http.get(gateway.baseUrl() + "/actuator/prometheus").body());
		texts.add(Http.get(gateway.baseUrl() + "/actuator/health").body());
		texts.add(post("/rpc", "Bearer " + ADMIN_KEY, "{\"jsonrpc\":\"2.0\",\"method\":\"admin.healthCheck\",\"id\":1}")
			.body());
		for (String method : List.of("admin.getConfig", "admin.statistics", "admin.clearCache")) {
			texts
				.add(post("/rpc", "Bearer " + ADMIN_KEY, "{\"jsonrpc\":\"2.0\",\"method\":\"" + method + "\",\"id\":1}")
					.body());
		}
		for (String text : texts) {
			for (String secret : SECRETS) {
				assertThat(text).as("an answer or scrape").doesNotContain(secret);
			}
		}
		String logs = output.getAll();
		assertThat(logs).contains("request.id=");
		for (String secret : SECRETS) {
			assertThat(logs).as("the logs").doesNotContain(secret);
		}
	}

	private static HttpResponse<String> expect(int status, HttpResponse<String> response) {
		assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
		return response;
	}

	private static String chat(String model) {
		return "{\"model\":\"" + model + "\",\"messages\":[{\"role\":\"user\",\"content\":\"" + PROMPT + "\"}]}";
	}

	private static String rpc(String method, String content) {
		return "{\"jsonrpc\":\"2.0\",\"method\":\"" + method + "\",\"params\":{\"content\":\"" + content
				+ "\"},\"id\":1}";
	}

	private static HttpResponse<String> post(String path, String authorization, String body) {
		return Http.post(gateway.baseUrl() + path, authorization, body);
	}

	private static HttpResponse<String> get(String path, String authorization) {
		return Http.send(HttpRequest.newBuilder(URI.create(gateway.baseUrl() + path))
			.timeout(Duration.ofSeconds(30))
			.header("Authorization", authorization)
			.GET()
			.build());
	}

	/**
	 * The worst upstream: every error it answers quotes the credentials it was sent. The
	 * model says what to do: {@code status-<code>}, {@code garbage} (200 that is not
	 * JSON), {@code stream-error} (a stream failing after one chunk), {@code ok}.
	 */
	private static void hostileAnswer(HttpExchange exchange) throws IOException {
		String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
		String authorization = String.valueOf(exchange.getRequestHeaders().getFirst("Authorization"));
		String key = authorization.replace("Bearer ", "");
		String model = body.replaceAll("(?s).*\"model\":\"([^\"]*)\".*", "$1");
		String error = "{\"error\":{\"message\":\"Request with " + authorization + " failed; key " + key
				+ " is not allowed.\",\"type\":\"" + key + "\",\"code\":\"" + key + "\"}}";
		if (model.startsWith("status-")) {
			int status = Integer.parseInt(model.substring("status-".length()));
			exchange.getResponseHeaders().set("Content-Type", "application/json");
			exchange.getResponseHeaders().set("Retry-After", "0");
			send(exchange, status, error);
		}
		else if (model.equals("garbage")) {
			send(exchange, 200, "this is not json " + key);
		}
		else if (model.equals("stream-error")) {
			exchange.getResponseHeaders().set("Content-Type", "text/event-stream");
			send(exchange, 200, "data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,"
					+ "\"delta\":{\"content\":\"x\"}}]}\n\ndata: " + error + "\n\n");
		}
		else {
			exchange.getResponseHeaders().set("Content-Type", "application/json");
			send(exchange, 200, "{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion\",\"model\":\"ok\",\"choices\":[{"
					+ "\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\"fine\"},\"finish_reason\":\"stop\"}],"
					+ "\"usage\":{\"prompt_tokens\":1,\"completion_tokens\":1,\"total_tokens\":2}}");
		}
	}

	private static void send(HttpExchange exchange, int status, String body) throws IOException {
		byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
		exchange.sendResponseHeaders(status, bytes.length);
		try (OutputStream out = exchange.getResponseBody()) {
			out.write(bytes);
		}
	}

}
