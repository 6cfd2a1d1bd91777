package dev.junction.gateway.messages;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

import dev.junction.gateway.support.EmulatedGateway;
import dev.junction.gateway.support.Http;
import dev.junction.gateway.support.Json;
import dev.junction.gateway.support.NoErrorLogs;
import dev.junction.mock.stats.Route;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code POST /v1/messages/count_tokens} estimated for a provider that does not count
 * tokens, through the same pipeline as every other call: gateway keys, rate limits and
 * metrics.
 */
class CountTokensIntegrationTests {

	private static final String KEY = "gw-count-key";

	private static final String LIMITED_KEY = "gw-count-limited-key";

	private static final String BODY = "{\"model\":\"emulator/gpt-4o-mini\",\"messages\":[{\"role\":\"user\",\"content\":\""
			+ "a".repeat(400) + "\"}]}";

	@RegisterExtension
	final NoErrorLogs noErrorLogs = new NoErrorLogs();

	@RegisterExtension
	static final EmulatedGateway gateway = EmulatedGateway.emulator(Map.of("junction.mock.api-keys", "sk-emu"))
		.key(KEY)
		.properties("junction.gateway.auth.keys[1]=" + LIMITED_KEY, "junction.gateway.cache.enabled=false",
				// A day's window refills a request every 12 hours: the third request in a
				// row is refused.
				"junction.gateway.rate-limit.requests=2", "junction.gateway.rate-limit.window=24h")
		.openAi("emulator", "sk-emu");

	@Test
	void estimatesWithinTheKeysRateLimit() {
		for (int i = 0; i < 2; i++) {
			HttpResponse<String> estimate = count(LIMITED_KEY);
			assertThat(estimate.statusCode()).as(estimate.body()).isEqualTo(200);
			assertThat(estimate.headers().firstValue(MessagesHandler.TOKEN_COUNT)).contains("estimate");
			assertThat(Json.parse(estimate.body()).path("input_tokens").asLong()).isEqualTo(104);
		}
		HttpResponse<String> refused = count(LIMITED_KEY);

		assertThat(refused.statusCode()).isEqualTo(429);
		JsonNode body = Json.parse(refused.body());
		assertThat(body.path("type").asString()).as(refused.body()).isEqualTo("error");
		assertThat(body.path("error").path("type").asString()).isEqualTo("rate_limit_error");
		assertThat(refused.headers().firstValue("retry-after")).isPresent();
		assertThat(gateway.emulator().stats().route(Route.CHAT_COMPLETIONS).requests()).isZero();
	}

	@Test
	void refusesAnUnknownKeyInAnthropicsShape() {
		HttpResponse<String> refused = count("gw-unknown");

		assertThat(refused.statusCode()).isEqualTo(401);
		assertThat(Json.parse(refused.body()).path("error").path("type").asString()).isEqualTo("authentication_error");
	}

	@Test
	void reportsEstimatesInTheRequestMetrics() {
		assertThat(count(KEY).statusCode()).isEqualTo(200);

		await().atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> assertThat(Http.get(gateway.baseUrl() + "/actuator/prometheus").body())
				.containsPattern("junction_gateway_requests_seconds_count\\{[^}]*entry=\"count_tokens\"[^}]*"
						+ "model=\"gpt-4o-mini\"[^}]*outcome=\"success\"[^}]*provider=\"emulator\"[^}]*status=\"200\"[^}]*} [1-9]"));
	}

	private static HttpResponse<String> count(String key) {
		return Http.postWithHeaders(gateway.baseUrl() + "/v1/messages/count_tokens",
				Map.of("x-api-key", key, "anthropic-version", "2023-06-01"), BODY);
	}

}
