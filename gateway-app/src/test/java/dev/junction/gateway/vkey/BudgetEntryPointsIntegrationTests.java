package dev.junction.gateway.vkey;

import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import com.anthropic.client.AnthropicClient;
import com.anthropic.core.http.StreamResponse;
import com.anthropic.helpers.MessageAccumulator;
import com.anthropic.models.messages.MessageCreateParams;
import com.anthropic.models.messages.RawMessageStreamEvent;
import dev.junction.gateway.support.AdminApi;
import dev.junction.gateway.support.Http;
import dev.junction.gateway.support.Json;
import dev.junction.gateway.support.RawHttp;
import dev.junction.gateway.support.RunningGateway;
import dev.junction.mock.MockProviderServer;
import dev.junction.mock.stats.Route;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Messages and Responses (translated to chat completions for an OpenAI-compatible
 * upstream, or passed through natively to an Anthropic or a Responses upstream) and
 * embeddings are charged once at the model's price and refused 429 over budget, each in
 * its own API's error shape; streams send their cost as a trailer; counting tokens is not
 * charged.
 */
class BudgetEntryPointsIntegrationTests {

	/**
	 * gpt-4o-mini: $0.15 and $0.60 per million input and output tokens, in nano-dollars
	 * per token.
	 */
	private static final long MINI_INPUT = 150;

	private static final long MINI_OUTPUT = 600;

	/** claude-3-5-haiku: $0.80 and $4 per million input and output tokens. */
	private static final long HAIKU_INPUT = 800;

	private static final long HAIKU_OUTPUT = 4000;

	/** text-embedding-3-small: $0.02 per million input tokens. */
	private static final long EMBEDDING_INPUT = 20;

	private static final String HAIKU = "claude/claude-3-5-haiku";

	private static MockProviderServer emulator;

	private static RunningGateway gateway;

	private static AdminApi admin;

	@BeforeAll
	static void start() {
		emulator = MockProviderServer.start(Map.of("junction.mock.completion-tokens", 20));
		gateway = RunningGateway
			.start(List.of("junction.gateway.auth.admin-keys[0]=admin-secret", "junction.gateway.cache.enabled=false",
					"junction.gateway.virtual-keys.db.url=jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1",
					"junction.gateway.providers.emu.type=openai",
					"junction.gateway.providers.emu.base-url=" + emulator.openAiBaseUrl(),
					"junction.gateway.providers.emu.keys[0].value=sk-emu",
					"junction.gateway.providers.claude.type=anthropic",
					"junction.gateway.providers.claude.base-url=" + emulator.baseUrl(),
					"junction.gateway.providers.claude.keys[0].value=sk-ant-emu",
					"junction.gateway.providers.native.type=openai",
					"junction.gateway.providers.native.base-url=" + emulator.openAiBaseUrl(),
					"junction.gateway.providers.native.keys[0].value=sk-native",
					"junction.gateway.providers.native.native-responses=true"));
		admin = new AdminApi(gateway.baseUrl(), "admin-secret");
	}

	@AfterAll
	static void stop() {
		gateway.close();
		emulator.close();
	}

	@Test
	void chargesAMessageAndAStreamedMessageOnceEachAtTheModelsPrice() {
		Key key = newKey("{\"name\":\"messages\",\"budget\":{\"usd\":1,\"period\":\"monthly\"}}");
		HttpResponse<String> message = post(key, "/v1/messages", message(false));
		assertThat(message.statusCode()).as(message.body()).isEqualTo(200);
		JsonNode usage = Json.parse(message.body()).path("usage");
		long expected = miniCost(usage);
		assertThat(usage.path("output_tokens").asLong()).isEqualTo(20);
		assertThat(message.headers().firstValue("x-request-cost")).hasValue(usd(expected));
		assertThat(message.headers().firstValue("x-budget-limit")).hasValue("1");
		JsonNode spend = admin.awaitSpend(key.id(), 1);
		assertThat(AdminApi.nanos(spend.path("usd"))).isEqualTo(expected);
		assertThat(spend.path("days").get(0).path("model").asString()).isEqualTo("emu/gpt-4o-mini");
		assertThat(AdminApi.nanos(spend.path("budget").path("spent_usd"))).isEqualTo(expected);
		assertThat(AdminApi.nanos(spend.path("budget").path("reserved_usd"))).isZero();

		HttpResponse<String> stream = post(key, "/v1/messages", message(true));
		assertThat(stream.statusCode()).as(stream.body()).isEqualTo(200);
		assertThat(stream.body()).contains("event: message_stop");
		spend = admin.awaitSpend(key.id(), 2);
		assertThat(AdminApi.nanos(spend.path("usd"))).isEqualTo(2 * expected);
		assertThat(AdminApi.nanos(spend.path("budget").path("reserved_usd"))).isZero();
	}

	@Test
	void refusesAMessageOverBudgetWith429InAnthropicsErrorShape() {
		Key key = spentKey("/v1/messages", message(false));
		for (boolean stream : new boolean[] { false, true }) {
			HttpResponse<String> refused = post(key, "/v1/messages", message(stream));
			assertThat(refused.statusCode()).as("%.300s", refused.body()).isEqualTo(429);
			assertThat(refused.headers().firstValue("content-type").orElseThrow()).startsWith("application/json");
			assertThat(refused.headers().firstValue("retry-after")).isPresent();
			JsonNode body = Json.parse(refused.body());
			assertThat(body.path("type").asString()).isEqualTo("error");
			assertThat(body.path("error").path("type").asString()).isEqualTo("rate_limit_error");
			assertThat(body.path("error").path("message").asString()).contains("monthly budget");
			assertThat(body.path("request_id").asString()).isNotBlank();
		}
		assertThat(AdminApi.requests(admin.awaitSpend(key.id(), 1))).isEqualTo(1);
	}

	@Test
	void chargesAResponseAndAStreamedResponseOnceEachAtTheModelsPrice() {
		Key key = newKey("{\"name\":\"responses\",\"budget\":{\"usd\":1,\"period\":\"monthly\"}}");
		long translated = emulator.stats().route(Route.CHAT_COMPLETIONS).requests();
		HttpResponse<String> response = post(key, "/v1/responses", response(false));
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		JsonNode usage = Json.parse(response.body()).path("usage");
		long expected = miniCost(usage);
		assertThat(usage.path("output_tokens").asLong()).isEqualTo(20);
		assertThat(response.headers().firstValue("x-request-cost")).hasValue(usd(expected));
		JsonNode spend = admin.awaitSpend(key.id(), 1);
		assertThat(AdminApi.nanos(spend.path("usd"))).isEqualTo(expected);
		assertThat(spend.path("days").get(0).path("model").asString()).isEqualTo("emu/gpt-4o-mini");

		HttpResponse<String> stream = post(key, "/v1/responses", response(true));
		assertThat(stream.statusCode()).as(stream.body()).isEqualTo(200);
		assertThat(stream.body()).contains("response.completed");
		spend = admin.awaitSpend(key.id(), 2);
		assertThat(AdminApi.nanos(spend.path("usd"))).isEqualTo(2 * expected);
		assertThat(AdminApi.nanos(spend.path("budget").path("reserved_usd"))).isZero();
		assertThat(emulator.stats().route(Route.CHAT_COMPLETIONS).requests()).as("served as chat completions")
			.isEqualTo(translated + 2);
	}

	@Test
	void refusesAResponseOverBudgetWith429InOpenAisErrorShape() {
		Key key = spentKey("/v1/responses", response(false));
		for (boolean stream : new boolean[] { false, true }) {
			assertBudgetExceeded(post(key, "/v1/responses", response(stream)));
		}
		assertThat(AdminApi.requests(admin.awaitSpend(key.id(), 1))).isEqualTo(1);
	}

	@Test
	void chargesEmbeddingsOnceAtTheEmbeddingModelsPrice() {
		Key key = newKey("{\"name\":\"embeddings\",\"budget\":{\"usd\":1,\"period\":\"monthly\"}}");
		HttpResponse<String> embeddings = post(key, "/v1/embeddings", embeddings("the quick brown fox"));
		assertThat(embeddings.statusCode()).as(embeddings.body()).isEqualTo(200);
		long tokens = Json.parse(embeddings.body()).path("usage").path("prompt_tokens").asLong();
		assertThat(tokens).isPositive();
		assertThat(embeddings.headers().firstValue("x-request-cost")).hasValue(usd(tokens * EMBEDDING_INPUT));
		JsonNode spend = admin.awaitSpend(key.id(), 1);
		assertThat(AdminApi.nanos(spend.path("usd"))).isEqualTo(tokens * EMBEDDING_INPUT);
		assertThat(spend.path("days").get(0).path("model").asString()).isEqualTo("emu/text-embedding-3-small");
		assertThat(AdminApi.nanos(spend.path("budget").path("reserved_usd"))).isZero();
	}

	@Test
	void refusesEmbeddingsOverBudgetWith429InOpenAisErrorShape() {
		Key key = spentKey("/v1/embeddings", embeddings("the quick brown fox"));
		assertBudgetExceeded(post(key, "/v1/embeddings", embeddings("the quick brown fox")));
		assertThat(AdminApi.requests(admin.awaitSpend(key.id(), 1))).isEqualTo(1);
	}

	@Test
	void reservesEmbeddingsFromTheirInputSoALargeOneCannotOverrunTheBudget() {
		// 6,000 characters are about 1,500 tokens: $0.00003, three times the budget.
		Key key = newKey("{\"name\":\"large-input\",\"budget\":{\"usd\":0.00001,\"period\":\"monthly\"}}");
		long sent = emulator.stats().route(Route.EMBEDDINGS).requests();
		assertBudgetExceeded(post(key, "/v1/embeddings", embeddings("lorem ipsum ".repeat(500))));
		assertThat(emulator.stats().route(Route.EMBEDDINGS).requests()).as("refused before the call").isEqualTo(sent);
		assertThat(AdminApi.nanos(admin.spend(key.id()).path("budget").path("spent_usd"))).isZero();
	}

	@Test
	void chargesAMessagePassedThroughToAnthropicAndItsStreamOnceEachAtTheClaudeModelsPrice() {
		Key key = newKey("{\"name\":\"native-messages\",\"budget\":{\"usd\":1,\"period\":\"monthly\"}}");
		long passed = emulator.stats().route(Route.MESSAGES).requests();
		HttpResponse<String> message = post(key, "/v1/messages", message(HAIKU, false));
		assertThat(message.statusCode()).as(message.body()).isEqualTo(200);
		JsonNode usage = Json.parse(message.body()).path("usage");
		long expected = usage.path("input_tokens").asLong() * HAIKU_INPUT
				+ usage.path("output_tokens").asLong() * HAIKU_OUTPUT;
		assertThat(usage.path("output_tokens").asLong()).isEqualTo(20);
		assertThat(message.headers().firstValue("x-request-cost")).hasValue(usd(expected));
		assertThat(message.headers().firstValue("x-budget-remaining")).hasValue(usd(1_000_000_000L - expected));
		JsonNode spend = admin.awaitSpend(key.id(), 1);
		assertThat(AdminApi.nanos(spend.path("usd"))).isEqualTo(expected);
		assertThat(spend.path("days").get(0).path("model").asString()).isEqualTo(HAIKU);

		RawHttp.Chunked stream = RawHttp.postForTrailers(gateway.port(), "/v1/messages", "Bearer " + key.secret(),
				message(HAIKU, true));
		assertThat(stream.status()).as(stream.body()).isEqualTo(200);
		assertThat(stream.body()).contains("event: message_stop");
		long input = 0;
		long output = 0;
		for (JsonNode event : events(stream.body())) {
			input = Math.max(input, event.path("message").path("usage").path("input_tokens").asLong());
			output = Math.max(output, event.path("usage").path("output_tokens").asLong());
		}
		long streamed = input * HAIKU_INPUT + output * HAIKU_OUTPUT;
		assertThat(output).isEqualTo(20);
		assertThat(stream.trailers()).containsEntry("x-request-cost", usd(streamed))
			.containsEntry("x-budget-remaining", usd(1_000_000_000L - expected - streamed));
		spend = admin.awaitSpend(key.id(), 2);
		assertThat(AdminApi.nanos(spend.path("usd"))).isEqualTo(expected + streamed);
		assertThat(AdminApi.nanos(spend.path("budget").path("reserved_usd"))).isZero();
		assertThat(emulator.stats().route(Route.MESSAGES).requests()).as("passed through as messages")
			.isEqualTo(passed + 2);

		AnthropicClient client = gateway.anthropicClient(key.secret());
		MessageAccumulator accumulator = MessageAccumulator.create();
		try (StreamResponse<RawMessageStreamEvent> sdkStream = client.messages()
			.createStreaming(MessageCreateParams.builder().model(HAIKU).maxTokens(50).addUserMessage("hi").build())) {
			sdkStream.stream().forEach(accumulator::accumulate);
		}
		finally {
			client.close();
		}
		assertThat(accumulator.message().usage().outputTokens()).as("the SDK reads a stream with trailers")
			.isEqualTo(20);
		assertThat(AdminApi.nanos(admin.awaitSpend(key.id(), 3).path("usd"))).isEqualTo(expected + 2 * streamed);
	}

	@Test
	void refusesANativeMessageOverBudgetWith429InAnthropicsErrorShape() {
		Key key = spentKey("/v1/messages", message(HAIKU, false));
		long passed = emulator.stats().route(Route.MESSAGES).requests();
		for (boolean stream : new boolean[] { false, true }) {
			HttpResponse<String> refused = post(key, "/v1/messages", message(HAIKU, stream));
			assertThat(refused.statusCode()).as("%.300s", refused.body()).isEqualTo(429);
			assertThat(Json.parse(refused.body()).path("error").path("type").asString()).isEqualTo("rate_limit_error");
		}
		assertThat(emulator.stats().route(Route.MESSAGES).requests()).as("refused before the call").isEqualTo(passed);
	}

	@Test
	void chargesAResponsePassedThroughNativelyAndItsStreamOnceEachAtTheModelsPrice() {
		Key key = newKey("{\"name\":\"native-responses\",\"budget\":{\"usd\":1,\"period\":\"monthly\"}}");
		long passed = emulator.stats().route(Route.RESPONSES).requests();
		HttpResponse<String> response = post(key, "/v1/responses", response("native/gpt-4o-mini", false));
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		long expected = miniCost(Json.parse(response.body()).path("usage"));
		assertThat(expected).isPositive();
		assertThat(response.headers().firstValue("x-request-cost")).hasValue(usd(expected));
		assertThat(AdminApi.nanos(admin.awaitSpend(key.id(), 1).path("usd"))).isEqualTo(expected);

		RawHttp.Chunked stream = RawHttp.postForTrailers(gateway.port(), "/v1/responses", "Bearer " + key.secret(),
				response("native/gpt-4o-mini", true));
		assertThat(stream.status()).as(stream.body()).isEqualTo(200);
		JsonNode completed = events(stream.body()).stream()
			.filter((event) -> event.path("type").asString().equals("response.completed"))
			.findFirst()
			.orElseThrow();
		long streamed = miniCost(completed.path("response").path("usage"));
		assertThat(stream.trailers()).containsEntry("x-request-cost", usd(streamed));
		JsonNode spend = admin.awaitSpend(key.id(), 2);
		assertThat(AdminApi.nanos(spend.path("usd"))).isEqualTo(expected + streamed);
		assertThat(spend.path("models").get(0).path("model").asString()).isEqualTo("native/gpt-4o-mini");
		assertThat(AdminApi.nanos(spend.path("budget").path("reserved_usd"))).isZero();
		assertThat(emulator.stats().route(Route.RESPONSES).requests()).as("passed through as responses")
			.isEqualTo(passed + 2);
	}

	@Test
	void refusesANativeResponseOverBudgetWith429InOpenAisErrorShape() {
		Key key = spentKey("/v1/responses", response("native/gpt-4o-mini", false));
		long passed = emulator.stats().route(Route.RESPONSES).requests();
		for (boolean stream : new boolean[] { false, true }) {
			assertBudgetExceeded(post(key, "/v1/responses", response("native/gpt-4o-mini", stream)));
		}
		assertThat(emulator.stats().route(Route.RESPONSES).requests()).as("refused before the call").isEqualTo(passed);
	}

	@Test
	void countsTokensWithoutChargingOrReservingBudgetButOnlyForTheKeysModelsWhileItIsActive() {
		// $0.000001 leaves no room for a message's reservation.
		Key key = newKey(
				"{\"name\":\"counting\",\"models\":[\"claude/*\"],\"budget\":{\"usd\":0.000001,\"period\":\"monthly\"}}");
		assertThat(post(key, "/v1/messages", message(HAIKU, false)).statusCode()).isEqualTo(429);
		long counted = emulator.stats().route(Route.COUNT_TOKENS).requests();
		HttpResponse<String> count = post(key, "/v1/messages/count_tokens", count(HAIKU));
		assertThat(count.statusCode()).as(count.body()).isEqualTo(200);
		assertThat(Json.parse(count.body()).path("input_tokens").asLong()).isPositive();
		assertThat(count.headers().firstValue("x-junction-token-count")).as("counted by the provider").isEmpty();
		Key other = newKey(
				"{\"name\":\"counting-other\",\"models\":[\"emu/*\"],\"budget\":{\"usd\":0.000001,\"period\":\"monthly\"}}");
		HttpResponse<String> estimate = post(other, "/v1/messages/count_tokens", count("emu/gpt-4o-mini"));
		assertThat(estimate.statusCode()).as(estimate.body()).isEqualTo(200);
		assertThat(estimate.headers().firstValue("x-junction-token-count")).hasValue("estimate");
		// Each key asks for a model it may not use: one the provider would count, one the
		// gateway estimates.
		for (String[] call : new String[][] { { "other", HAIKU }, { "key", "emu/gpt-4o-mini" } }) {
			HttpResponse<String> forbidden = post(call[0].equals("key") ? key : other, "/v1/messages/count_tokens",
					count(call[1]));
			assertThat(forbidden.statusCode()).as(forbidden.body()).isEqualTo(403);
			JsonNode error = Json.parse(forbidden.body());
			assertThat(error.path("type").asString()).isEqualTo("error");
			assertThat(error.path("error").path("type").asString()).isEqualTo("permission_error");
			assertThat(error.path("error").path("message").asString())
				.contains("may not use the model '" + call[1] + "'");
		}
		assertThat(emulator.stats().route(Route.COUNT_TOKENS).requests()).isEqualTo(counted + 1);
		for (Key counting : new Key[] { key, other }) {
			JsonNode spend = admin.spend(counting.id());
			assertThat(AdminApi.requests(spend)).isZero();
			assertThat(AdminApi.nanos(spend.path("budget").path("spent_usd"))).isZero();
			assertThat(AdminApi.nanos(spend.path("budget").path("reserved_usd"))).isZero();
		}

		for (Key expiring : new Key[] { key, other }) {
			HttpResponse<String> expired = admin.send("PATCH", "/admin/v1/keys/" + expiring.id(),
					"{\"expires_at\":\"2020-01-01T00:00:00Z\"}");
			assertThat(expired.statusCode()).as(expired.body()).isEqualTo(200);
		}
		assertThat(post(key, "/v1/messages/count_tokens", count(HAIKU)).statusCode()).isEqualTo(401);
		assertThat(post(other, "/v1/messages/count_tokens", count("emu/gpt-4o-mini")).statusCode()).isEqualTo(401);
	}

	private static void assertBudgetExceeded(HttpResponse<String> refused) {
		assertThat(refused.statusCode()).as("%.300s", refused.body()).isEqualTo(429);
		assertThat(refused.headers().firstValue("content-type").orElseThrow()).startsWith("application/json");
		assertThat(refused.headers().firstValue("retry-after")).isPresent();
		JsonNode error = Json.parse(refused.body()).path("error");
		assertThat(error.path("code").asString()).isEqualTo("budget_exceeded");
		assertThat(error.path("message").asString()).contains("budget");
	}

	/**
	 * A key that made one charged request on {@code path}, then had its budget cut below
	 * what it spent.
	 */
	private static Key spentKey(String path, String body) {
		Key key = newKey("{\"name\":\"spent\",\"budget\":{\"usd\":1,\"period\":\"monthly\"}}");
		HttpResponse<String> first = post(key, path, body);
		assertThat(first.statusCode()).as(first.body()).isEqualTo(200);
		long spent = AdminApi.nanos(admin.awaitSpend(key.id(), 1).path("usd"));
		assertThat(spent).isPositive();
		HttpResponse<String> cut = admin.send("PATCH", "/admin/v1/keys/" + key.id(),
				"{\"budget\":{\"usd\":" + usd(spent / 2) + ",\"period\":\"monthly\"}}");
		assertThat(cut.statusCode()).as(cut.body()).isEqualTo(200);
		return key;
	}

	/** What Messages or Responses {@code usage} costs at gpt-4o-mini, in nano-dollars. */
	private static long miniCost(JsonNode usage) {
		return usage.path("input_tokens").asLong() * MINI_INPUT + usage.path("output_tokens").asLong() * MINI_OUTPUT;
	}

	private static String message(boolean stream) {
		return message("emu/gpt-4o-mini", stream);
	}

	private static String message(String model, boolean stream) {
		return "{\"model\":\"" + model + "\",\"max_tokens\":50,\"stream\":" + stream
				+ ",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";
	}

	private static String count(String model) {
		return "{\"model\":\"" + model + "\",\"messages\":[{\"role\":\"user\",\"content\":\"how many tokens?\"}]}";
	}

	private static String response(boolean stream) {
		return response("emu/gpt-4o-mini", stream);
	}

	private static String response(String model, boolean stream) {
		return "{\"model\":\"" + model + "\",\"max_output_tokens\":50,\"stream\":" + stream + ",\"input\":\"hi\"}";
	}

	/** The JSON of each event of a stream. */
	private static List<JsonNode> events(String body) {
		return body.lines()
			.filter((line) -> line.startsWith("data: {"))
			.map((line) -> Json.parse(line.substring(6)))
			.toList();
	}

	private static String embeddings(String input) {
		return "{\"model\":\"emu/text-embedding-3-small\",\"input\":\"" + input + "\"}";
	}

	private static HttpResponse<String> post(Key key, String path, String body) {
		return Http.post(gateway.baseUrl() + path, "Bearer " + key.secret(), body);
	}

	private static String usd(long nanos) {
		return java.math.BigDecimal.valueOf(nanos, 9).stripTrailingZeros().toPlainString();
	}

	private static Key newKey(String body) {
		JsonNode created = admin.create(body);
		return new Key(created.path("id").asString(), created.path("key").asString());
	}

	private record Key(String id, String secret) {
	}

}
