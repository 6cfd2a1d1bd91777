package dev.junction.gateway.vkey;

import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import dev.junction.gateway.support.AdminApi;
import dev.junction.gateway.support.Http;
import dev.junction.gateway.support.Json;
import dev.junction.gateway.support.RunningGateway;
import dev.junction.mock.MockProviderServer;
import dev.junction.mock.stats.Route;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Messages, Responses (translated to chat completions for an OpenAI-compatible upstream) and
 * embeddings are charged once at the model's price and refused 429 over budget, each in its
 * own API's error shape.
 */
class BudgetEntryPointsIntegrationTests {

	/** gpt-4o-mini: $0.15 and $0.60 per million input and output tokens, in nano-dollars per token. */
	private static final long MINI_INPUT = 150;

	private static final long MINI_OUTPUT = 600;

	/** text-embedding-3-small: $0.02 per million input tokens. */
	private static final long EMBEDDING_INPUT = 20;

	private static MockProviderServer emulator;

	private static RunningGateway gateway;

	private static AdminApi admin;

	@BeforeAll
	static void start() {
		emulator = MockProviderServer.start(Map.of("mock.completion-tokens", 20));
		gateway = RunningGateway.start(List.of("junction.auth.admin-keys[0]=admin-secret",
				"junction.cache.enabled=false",
				"junction.virtual-keys.db.url=jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1",
				"junction.providers.emu.type=openai", "junction.providers.emu.base-url=" + emulator.openAiBaseUrl(),
				"junction.providers.emu.keys[0].value=sk-emu"));
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

	private static void assertBudgetExceeded(HttpResponse<String> refused) {
		assertThat(refused.statusCode()).as("%.300s", refused.body()).isEqualTo(429);
		assertThat(refused.headers().firstValue("content-type").orElseThrow()).startsWith("application/json");
		assertThat(refused.headers().firstValue("retry-after")).isPresent();
		JsonNode error = Json.parse(refused.body()).path("error");
		assertThat(error.path("code").asString()).isEqualTo("budget_exceeded");
		assertThat(error.path("message").asString()).contains("budget");
	}

	/** A key that made one charged request on {@code path}, then had its budget cut below what it spent. */
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
		return "{\"model\":\"emu/gpt-4o-mini\",\"max_tokens\":50,\"stream\":" + stream
				+ ",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";
	}

	private static String response(boolean stream) {
		return "{\"model\":\"emu/gpt-4o-mini\",\"max_output_tokens\":50,\"stream\":" + stream + ",\"input\":\"hi\"}";
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
