package dev.junction.gateway.vkey;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import dev.junction.gateway.support.AdminApi;
import dev.junction.gateway.support.Http;
import dev.junction.gateway.support.Json;
import dev.junction.gateway.support.RawHttp;
import dev.junction.gateway.support.RunningGateway;
import dev.junction.mock.MockProviderServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every way a request reaches a provider is charged once, at the price of the model that
 * answered, from the usage the provider reported; a key over its budget is refused 429
 * {@code budget_exceeded} on every entry point. The emulator reports usage for 20
 * completion tokens (fewer when max_tokens is lower).
 */
class BudgetIntegrationTests {

	/**
	 * gpt-4o-mini: $0.15 and $0.60 per million input and output tokens, in nano-dollars
	 * per token.
	 */
	private static final long MINI_INPUT = 150;

	private static final long MINI_OUTPUT = 600;

	private static MockProviderServer emulator;

	private static MockProviderServer flaky;

	private static MockProviderServer slow;

	private static MockProviderServer down;

	private static RunningGateway gateway;

	private static AdminApi admin;

	@BeforeAll
	static void start() {
		emulator = MockProviderServer.start(Map.of("junction.mock.completion-tokens", 20));
		flaky = MockProviderServer.start(Map.of("junction.mock.completion-tokens", 20, "junction.mock.error-rate", 0.5,
				"junction.mock.error-status", 503, "junction.mock.retry-after-seconds", 0));
		slow = MockProviderServer.start(Map.of("junction.mock.completion-tokens", 200, "junction.mock.chunk-delay-ms",
				50, "junction.mock.stream-chunks", 0));
		down = MockProviderServer.start(Map.of("junction.mock.error-rate", 1.0, "junction.mock.error-status", 503));
		gateway = RunningGateway.start(List.of("junction.gateway.auth.admin-keys[0]=admin-secret",
				"junction.gateway.cache.enabled=false",
				"junction.gateway.virtual-keys.db.url=jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1",
				"junction.gateway.providers.emu.type=openai",
				"junction.gateway.providers.emu.base-url=" + emulator.openAiBaseUrl(),
				"junction.gateway.providers.emu.keys[0].value=sk-emu", "junction.gateway.providers.flaky.type=openai",
				"junction.gateway.providers.flaky.base-url=" + flaky.openAiBaseUrl(),
				"junction.gateway.providers.flaky.keys[0].value=sk-flaky",
				"junction.gateway.providers.slow.type=openai",
				"junction.gateway.providers.slow.base-url=" + slow.openAiBaseUrl(),
				"junction.gateway.providers.slow.keys[0].value=sk-slow", "junction.gateway.providers.down.type=openai",
				"junction.gateway.providers.down.base-url=" + down.openAiBaseUrl(),
				"junction.gateway.providers.down.keys[0].value=sk-down",
				"junction.gateway.models.smart.targets[0]=down/gpt-4o",
				"junction.gateway.models.smart.targets[1]=emu/gpt-4o-mini",
				"resilience4j.retry.configs.default.max-attempts=5",
				"resilience4j.retry.configs.default.wait-duration=10ms",
				"junction.gateway.rpc.default-model=emu/gpt-4o-mini"));
		admin = new AdminApi(gateway.baseUrl(), "admin-secret");
	}

	@AfterAll
	static void stop() {
		gateway.close();
		emulator.close();
		flaky.close();
		slow.close();
		down.close();
	}

	@Test
	void chargesACompleteRequestOnceAtItsModelsPriceAndSaysSoInItsHeaders() {
		Key key = newKey("{\"name\":\"complete\",\"budget\":{\"usd\":1,\"period\":\"monthly\"}}");
		HttpResponse<String> response = chat(key, "emu/gpt-4o-mini", false, 50);
		assertThat(response.statusCode()).isEqualTo(200);
		long expected = cost(Json.parse(response.body()).path("usage"));
		assertThat(expected).isPositive();
		assertThat(response.headers().firstValue("x-request-cost")).hasValue(usd(expected));
		assertThat(response.headers().firstValue("x-budget-limit")).hasValue("1");
		assertThat(response.headers().firstValue("x-budget-reset")).isPresent();
		assertThat(new java.math.BigDecimal(response.headers().firstValue("x-budget-remaining").orElseThrow()))
			.isEqualByComparingTo(java.math.BigDecimal.ONE.subtract(new java.math.BigDecimal(usd(expected))));
		JsonNode spend = awaitSpend(key, 1);
		assertThat(nanos(spend.path("usd"))).isEqualTo(expected);
		JsonNode day = spend.path("days").get(0);
		assertThat(day.path("day").asString()).isEqualTo(LocalDate.now(ZoneOffset.UTC).toString());
		assertThat(day.path("model").asString()).isEqualTo("emu/gpt-4o-mini");
		assertThat(day.path("requests").asLong()).isEqualTo(1);
		assertThat(nanos(spend.path("budget").path("spent_usd"))).isEqualTo(expected);
		assertThat(nanos(spend.path("budget").path("reserved_usd"))).isZero();
	}

	@Test
	void countsCostAndTokensPerKeyIdAndPerModelNeverNamingTheSecret() {
		Key key = newKey("{\"name\":\"metered\"}");
		HttpResponse<String> response = chat(key, "emu/gpt-4o-mini", false, 50);
		long expected = cost(Json.parse(response.body()).path("usage"));
		awaitSpend(key, 1);
		String metrics = Http.get(gateway.baseUrl() + "/actuator/prometheus").body();
		java.util.regex.Matcher cost = java.util.regex.Pattern
			.compile("junction_key_spend_cost_usd_total\\{[^}]*key=\"" + key.id() + "\"[^}]*} (\\S+)")
			.matcher(metrics);
		assertThat(cost.find()).as(metrics).isTrue();
		assertThat(Double.parseDouble(cost.group(1))).isCloseTo(expected / 1e9,
				org.assertj.core.data.Offset.offset(1e-12));
		assertThat(metrics).containsPattern(
				"junction_key_spend_tokens_total\\{[^}]*key=\"" + key.id() + "\"[^}]*type=\"output\"[^}]*} 20.0");
		assertThat(metrics)
			.containsPattern("junction_spend_cost_usd_total\\{[^}]*model=\"gpt-4o-mini\",provider=\"emu\"[^}]*} [0-9]");
		assertThat(metrics).doesNotContain(key.secret())
			.doesNotContain(key.secret().substring(key.secret().indexOf('.')));
	}

	@Test
	void chargesAStreamFromItsFinalUsageChunkEvenWhenTheClientDidNotAskForIt() {
		Key key = newKey("{\"name\":\"stream\"}");
		HttpResponse<String> complete = chat(key, "emu/gpt-4o-mini", false, 50);
		long perRequest = cost(Json.parse(complete.body()).path("usage"));
		HttpResponse<String> stream = chat(key, "emu/gpt-4o-mini", true, 50);
		assertThat(stream.statusCode()).isEqualTo(200);
		assertThat(stream.body()).doesNotContain("\"usage\":{");
		JsonNode spend = awaitSpend(key, 2);
		assertThat(nanos(spend.path("usd"))).isEqualTo(2 * perRequest);
	}

	@Test
	void chargesARetriedRequestOnceForTheAttemptThatAnswered() {
		Key key = newKey("{\"name\":\"retried\"}");
		long expected = 0;
		int answered = 0;
		for (int i = 0; i < 12; i++) {
			HttpResponse<String> response = chat(key, "flaky/gpt-4o-mini", false, 50);
			if (response.statusCode() == 200) {
				expected += cost(Json.parse(response.body()).path("usage"));
				answered++;
			}
		}
		assertThat(flaky.stats().route(dev.junction.mock.stats.Route.CHAT_COMPLETIONS).errors())
			.as("some attempts failed and were retried")
			.isPositive();
		assertThat(answered).isPositive();
		JsonNode spend = awaitSpend(key, answered);
		assertThat(nanos(spend.path("usd"))).isEqualTo(expected);
	}

	@Test
	void chargesAFallbackAtTheFallbacksPrice() {
		Key key = newKey("{\"name\":\"fallback\"}");
		HttpResponse<String> response = chat(key, "smart", false, 50);
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		long expected = cost(Json.parse(response.body()).path("usage"));
		JsonNode spend = awaitSpend(key, 1);
		assertThat(nanos(spend.path("usd"))).isEqualTo(expected);
		assertThat(spend.path("models").get(0).path("model").asString()).isEqualTo("emu/gpt-4o-mini");
	}

	@Test
	void chargesAStreamTheClientCancelledForWhatItReceived() throws Exception {
		Key key = newKey("{\"name\":\"cancelled\",\"budget\":{\"usd\":1,\"period\":\"total\"}}");
		String body = "{\"model\":\"slow/gpt-4o-mini\",\"max_tokens\":200,\"stream\":true,"
				+ "\"messages\":[{\"role\":\"user\",\"content\":\"tell me a long story\"}]}";
		try (Socket socket = new Socket("127.0.0.1", gateway.port())) {
			OutputStream out = socket.getOutputStream();
			out.write(("POST /v1/chat/completions HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
					+ "Authorization: Bearer " + key.secret() + "\r\nContent-Length: " + body.length() + "\r\n\r\n"
					+ body)
				.getBytes(StandardCharsets.UTF_8));
			BufferedReader in = new BufferedReader(
					new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
			int events = 0;
			for (String line = in.readLine(); line != null && events < 5; line = in.readLine()) {
				if (line.contains("data: {")) {
					events++;
				}
			}
			assertThat(events).isEqualTo(5);
		}
		JsonNode spend = awaitSpend(key, 1);
		long charged = nanos(spend.path("usd"));
		assertThat(charged).as("the prompt and the chunks received, not the 200 tokens asked for")
			.isPositive()
			.isLessThan(200 * MINI_OUTPUT);
		assertThat(nanos(spend.path("budget").path("spent_usd"))).isEqualTo(charged);
		assertThat(nanos(spend.path("budget").path("reserved_usd"))).as("the reservation was settled").isZero();
		Thread.sleep(300);
		assertThat(admin.spend(key.id()).path("days").get(0).path("requests").asLong()).as("charged once").isEqualTo(1);
	}

	@Test
	void refusesAKeyOverItsBudgetWith429OnEveryEntryPoint() {
		// One request reserves 50 prompt tokens at most and 20 output tokens: well under
		// $0.0001 at gpt-4o-mini.
		Key key = newKey("{\"name\":\"tiny\",\"budget\":{\"usd\":0.00002,\"period\":\"daily\"}}");
		HttpResponse<String> first = chat(key, "emu/gpt-4o-mini", false, 20);
		assertThat(first.statusCode()).as(first.body()).isEqualTo(200);
		awaitSpend(key, 1);
		HttpResponse<String> refused = chat(key, "emu/gpt-4o-mini", false, 20);
		assertThat(refused.statusCode()).isEqualTo(429);
		JsonNode error = Json.parse(refused.body()).path("error");
		assertThat(error.path("code").asString()).isEqualTo("budget_exceeded");
		assertThat(error.path("message").asString()).contains("daily budget");
		assertThat(refused.headers().firstValue("retry-after")).isPresent();
		HttpResponse<String> stream = chat(key, "emu/gpt-4o-mini", true, 20);
		assertThat(stream.statusCode()).isEqualTo(429);
		assertThat(stream.body()).contains("budget_exceeded");
		HttpResponse<String> rpc = Http.post(gateway.baseUrl() + "/rpc", "Bearer " + key.secret(),
				"{\"jsonrpc\":\"2.0\",\"method\":\"ai.generateText\",\"params\":{\"content\":\"hi\",\"maxTokens\":20},\"id\":1}");
		assertThat(rpc.body()).contains("budget_exceeded");
		assertThat(Json.parse(rpc.body()).path("error").path("data").path("code").asString())
			.isEqualTo("budget_exceeded");
		HttpResponse<String> trpc = Http.post(gateway.baseUrl() + "/trpc/ai.generateText", "Bearer " + key.secret(),
				"{\"content\":\"hi\",\"maxTokens\":20}");
		assertThat(trpc.statusCode()).isEqualTo(429);
		assertThat(trpc.body()).contains("budget_exceeded");
		assertThat(awaitSpend(key, 1).path("days").get(0).path("requests").asLong()).isEqualTo(1);
	}

	@Test
	void chargesRpcCallsOnceAtTheirModelsPrice() {
		Key key = newKey("{\"name\":\"rpc\"}");
		HttpResponse<String> rpc = Http.post(gateway.baseUrl() + "/rpc", "Bearer " + key.secret(),
				"{\"jsonrpc\":\"2.0\",\"method\":\"ai.generateText\",\"params\":{\"content\":\"hi\",\"model\":\"emu/gpt-4o-mini\"},\"id\":1}");
		assertThat(rpc.statusCode()).as(rpc.body()).isEqualTo(200);
		JsonNode usage = Json.parse(rpc.body()).path("result").path("usage");
		HttpResponse<String> trpc = Http.post(gateway.baseUrl() + "/trpc/ai.generateText", "Bearer " + key.secret(),
				"{\"content\":\"hi\",\"model\":\"emu/gpt-4o-mini\"}");
		assertThat(trpc.statusCode()).as(trpc.body()).isEqualTo(200);
		JsonNode spend = awaitSpend(key, 2);
		long charged = nanos(spend.path("usd"));
		assertThat(charged % 2).as("two equal calls: %s", usage).isZero();
		assertThat(charged / 2)
			.isEqualTo(20 * MINI_OUTPUT + (charged / 2 - 20 * MINI_OUTPUT) / MINI_INPUT * MINI_INPUT);
		assertThat(spend.path("models").get(0).path("model").asString()).isEqualTo("emu/gpt-4o-mini");
	}

	@Test
	void chargesAStreamedFallbackOnceAtTheFallbacksPriceAndNothingForTheFailedAttempt() {
		Key key = newKey("{\"name\":\"streamed-fallback\",\"budget\":{\"usd\":1,\"period\":\"monthly\"}}");
		long failed = down.stats().route(dev.junction.mock.stats.Route.CHAT_COMPLETIONS).errors();
		RawHttp.Chunked stream = RawHttp.postForTrailers(gateway.port(), "/v1/chat/completions",
				"Bearer " + key.secret(), streamBody("smart", 50));
		assertThat(stream.status()).as(stream.body()).isEqualTo(200);
		assertThat(down.stats().route(dev.junction.mock.stats.Route.CHAT_COMPLETIONS).errors())
			.as("the first target failed before the fallback answered")
			.isGreaterThan(failed);
		long expected = cost(streamedUsage(stream.body()));
		JsonNode spend = awaitSpend(key, 1);
		assertThat(nanos(spend.path("usd"))).isEqualTo(expected);
		assertThat(nanos(spend.path("budget").path("spent_usd"))).isEqualTo(expected);
		assertThat(nanos(spend.path("budget").path("reserved_usd"))).isZero();
		assertThat(spend.path("models")).hasSize(1);
		assertThat(spend.path("models").get(0).path("model").asString()).isEqualTo("emu/gpt-4o-mini");
		assertThat(stream.trailers().get("x-request-cost")).isEqualTo(usd(expected));
	}

	@Test
	void sendsAStreamsCostAsATrailerAfterItsReservedBudgetInTheHeaders() {
		Key key = newKey("{\"name\":\"trailers\",\"budget\":{\"usd\":1,\"period\":\"monthly\"}}");
		// Five chunks 50 ms apart: the headers are sent with the first, the usage comes
		// with the last.
		RawHttp.Chunked stream = RawHttp.postForTrailers(gateway.port(), "/v1/chat/completions",
				"Bearer " + key.secret(), streamBody("slow/gpt-4o-mini", 5));
		assertThat(stream.status()).as(stream.body()).isEqualTo(200);
		assertThat(stream.body()).endsWith("data: [DONE]\n\n");
		assertThat(stream.headers().get("trailer")).isEqualTo("X-Request-Cost, X-Budget-Remaining");
		assertThat(stream.headers()).doesNotContainKey("x-request-cost").containsEntry("x-budget-limit", "1");
		long reserved = java.math.BigDecimal.ONE
			.subtract(new java.math.BigDecimal(stream.headers().get("x-budget-remaining")))
			.movePointRight(9)
			.longValueExact();
		long expected = cost(streamedUsage(stream.body()));
		assertThat(reserved).as("the reservation counts as spent while the stream runs").isGreaterThan(expected);
		assertThat(stream.trailers()).containsEntry("x-request-cost", usd(expected))
			.containsEntry("x-budget-remaining", usd(1_000_000_000L - expected));
		assertThat(nanos(awaitSpend(key, 1).path("usd"))).isEqualTo(expected);
	}

	@Test
	void theOpenAiSdkReadsAStreamThatEndsWithCostTrailers() {
		Key key = newKey("{\"name\":\"sdk-stream\",\"budget\":{\"usd\":1,\"period\":\"monthly\"}}");
		com.openai.client.OpenAIClient client = gateway.openAiClient(key.secret());
		StringBuilder text = new StringBuilder();
		try (com.openai.core.http.StreamResponse<com.openai.models.chat.completions.ChatCompletionChunk> stream = client
			.chat()
			.completions()
			.createStreaming(com.openai.models.chat.completions.ChatCompletionCreateParams.builder()
				.model("emu/gpt-4o-mini")
				.maxCompletionTokens(50)
				.addUserMessage("hi")
				.build())) {
			stream.stream()
				.forEach((chunk) -> chunk.choices()
					.forEach((choice) -> choice.delta().content().ifPresent(text::append)));
		}
		finally {
			client.close();
		}
		assertThat(text).isNotEmpty();
		assertThat(nanos(awaitSpend(key, 1).path("usd"))).isPositive();
	}

	@Test
	void saysWhatAnRpcCallAndABatchCostAndWhatTheyLeftOfTheBudget() {
		Key key = newKey("{\"name\":\"rpc-headers\",\"budget\":{\"usd\":1,\"period\":\"monthly\"}}");
		String call = "{\"jsonrpc\":\"2.0\",\"method\":\"ai.generateText\",\"params\":{\"content\":\"hi\",\"maxTokens\":50},\"id\":%d}";
		HttpResponse<String> single = Http.post(gateway.baseUrl() + "/rpc", "Bearer " + key.secret(),
				call.formatted(1));
		assertThat(single.statusCode()).as(single.body()).isEqualTo(200);
		long first = rpcCost(Json.parse(single.body()).path("result"));
		assertThat(single.headers().firstValue("x-request-cost")).hasValue(usd(first));
		assertThat(single.headers().firstValue("x-budget-limit")).hasValue("1");
		assertThat(single.headers().firstValue("x-budget-reset")).isPresent();
		assertThat(single.headers().firstValue("x-budget-remaining")).hasValue(usd(1_000_000_000L - first));
		awaitSpend(key, 1);

		HttpResponse<String> trpc = Http.post(gateway.baseUrl() + "/trpc/ai.generateText", "Bearer " + key.secret(),
				"{\"content\":\"hi\",\"maxTokens\":50}");
		assertThat(trpc.statusCode()).as(trpc.body()).isEqualTo(200);
		long second = rpcCost(Json.parse(trpc.body()).path("result").path("data"));
		assertThat(trpc.headers().firstValue("x-request-cost")).hasValue(usd(second));
		assertThat(trpc.headers().firstValue("x-budget-remaining")).hasValue(usd(1_000_000_000L - first - second));
		awaitSpend(key, 2);

		HttpResponse<String> batch = Http.post(gateway.baseUrl() + "/rpc", "Bearer " + key.secret(),
				"[" + call.formatted(3) + "," + call.formatted(4)
						+ ",{\"jsonrpc\":\"2.0\",\"method\":\"ai.listProviders\",\"id\":5}]");
		assertThat(batch.statusCode()).as(batch.body()).isEqualTo(200);
		JsonNode answers = Json.parse(batch.body());
		long batchCost = rpcCost(answers.get(0).path("result")) + rpcCost(answers.get(1).path("result"));
		assertThat(batch.headers().firstValue("x-request-cost")).as("the sum of the batch's calls")
			.hasValue(usd(batchCost));
		long spent = nanos(awaitSpend(key, 4).path("usd"));
		assertThat(spent).isEqualTo(first + second + batchCost);
		long remaining = new java.math.BigDecimal(batch.headers().firstValue("x-budget-remaining").orElseThrow())
			.movePointRight(9)
			.longValueExact();
		assertThat(remaining).as("never more than is left after the batch")
			.isLessThanOrEqualTo(1_000_000_000L - spent)
			.isPositive();

		HttpResponse<String> trpcBatch = Http.post(gateway.baseUrl() + "/trpc/ai.generateText,ai.generateText?batch=1",
				"Bearer " + key.secret(),
				"{\"0\":{\"content\":\"hi\",\"maxTokens\":50},\"1\":{\"content\":\"hello\",\"maxTokens\":50}}");
		assertThat(trpcBatch.statusCode()).as(trpcBatch.body()).isEqualTo(200);
		JsonNode results = Json.parse(trpcBatch.body());
		assertThat(trpcBatch.headers().firstValue("x-request-cost"))
			.hasValue(usd(rpcCost(results.get(0).path("result").path("data"))
					+ rpcCost(results.get(1).path("result").path("data"))));
	}

	@Test
	void chargesNothingToTheBudgetForACallWithTheCallersOwnKeyButRecordsItsCostApart() {
		// $0.000001 leaves no room for any request's reservation.
		Key key = newKey("{\"name\":\"byok\",\"budget\":{\"usd\":0.000001,\"period\":\"monthly\"}}");
		String params = "\"content\":\"hi\",\"model\":\"emu/gpt-4o-mini\",\"maxTokens\":50";
		HttpResponse<String> refused = Http.post(gateway.baseUrl() + "/rpc", "Bearer " + key.secret(),
				"{\"jsonrpc\":\"2.0\",\"method\":\"ai.generateText\",\"params\":{" + params + "},\"id\":1}");
		assertThat(Json.parse(refused.body()).path("error").path("data").path("code").asString())
			.isEqualTo("budget_exceeded");
		HttpResponse<String> own = Http.post(gateway.baseUrl() + "/rpc", "Bearer " + key.secret(),
				"{\"jsonrpc\":\"2.0\",\"method\":\"ai.generateText\",\"params\":{" + params
						+ ",\"apiKey\":\"sk-caller-own-key-0123456789\"},\"id\":2}");
		assertThat(own.statusCode()).as(own.body()).isEqualTo(200);
		long cost = rpcCost(Json.parse(own.body()).path("result"));
		assertThat(cost).isPositive();
		assertThat(own.headers().firstValue("x-request-cost")).as("its cost at list price").hasValue(usd(cost));
		assertThat(own.headers().firstValue("x-budget-remaining")).isEmpty();
		JsonNode spend = awaitSpend(key, 1);
		assertThat(nanos(spend.path("usd"))).as("not debited").isZero();
		assertThat(nanos(spend.path("byok_usd"))).isEqualTo(cost);
		assertThat(nanos(spend.path("days").get(0).path("byok_usd"))).isEqualTo(cost);
		assertThat(spend.path("days").get(0).path("completion_tokens").asLong()).isEqualTo(20);
		assertThat(nanos(spend.path("budget").path("spent_usd"))).isZero();
		assertThat(nanos(spend.path("budget").path("reserved_usd"))).isZero();
	}

	/** A chat stream of {@code model} that asks for its usage. */
	private static String streamBody(String model, int maxTokens) {
		return "{\"model\":\"" + model + "\",\"max_tokens\":" + maxTokens
				+ ",\"stream\":true,\"stream_options\":{\"include_usage\":true},"
				+ "\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";
	}

	/** The usage of a chat stream's final usage chunk. */
	private static JsonNode streamedUsage(String body) {
		return body.lines()
			.filter((line) -> line.startsWith("data: {"))
			.map((line) -> Json.parse(line.substring("data: ".length())).path("usage"))
			.filter(JsonNode::isObject)
			.reduce((first, last) -> last)
			.orElseThrow(() -> new AssertionError("no usage in " + body));
	}

	/** What an ai.generateText answer's usage costs at gpt-4o-mini. */
	private static long rpcCost(JsonNode result) {
		JsonNode usage = result.path("usage");
		return usage.path("promptTokens").asLong() * MINI_INPUT + usage.path("completionTokens").asLong() * MINI_OUTPUT;
	}

	private static HttpResponse<String> chat(Key key, String model, boolean stream, int maxTokens) {
		return Http.post(gateway.baseUrl() + "/v1/chat/completions", "Bearer " + key.secret(),
				"{\"model\":\"" + model + "\",\"max_tokens\":" + maxTokens + ",\"stream\":" + stream
						+ ",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");
	}

	private static long cost(JsonNode usage) {
		return usage.path("prompt_tokens").asLong() * MINI_INPUT
				+ usage.path("completion_tokens").asLong() * MINI_OUTPUT;
	}

	private static long nanos(JsonNode usd) {
		return AdminApi.nanos(usd);
	}

	private static String usd(long nanos) {
		return java.math.BigDecimal.valueOf(nanos, 9).stripTrailingZeros().toPlainString();
	}

	/** The key's spend once {@code requests} requests are recorded. */
	private static JsonNode awaitSpend(Key key, long requests) {
		return admin.awaitSpend(key.id(), requests);
	}

	private static Key newKey(String body) {
		JsonNode created = admin.create(body);
		return new Key(created.path("id").asString(), created.path("key").asString());
	}

	private record Key(String id, String secret) {
	}

}
