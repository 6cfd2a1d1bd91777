package dev.junction.gateway.vkey;

import java.math.BigDecimal;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import dev.junction.gateway.support.AdminApi;
import dev.junction.gateway.support.Http;
import dev.junction.gateway.support.Json;
import dev.junction.gateway.support.RedisServer;
import dev.junction.gateway.support.RunningGateway;
import dev.junction.gateway.support.TestPostgres;
import dev.junction.mock.MockProviderServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Two gateways on one real PostgreSQL and one redis-server act on a virtual key as one.
 */
class SharedBudgetIntegrationTests {

	private static final String CHAT = "{\"model\":\"emu/gpt-4o\",\"max_tokens\":20,"
			+ "\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";

	private static TestPostgres postgres;

	private static RedisServer redis;

	private static MockProviderServer emulator;

	private static RunningGateway first;

	private static RunningGateway second;

	@BeforeAll
	static void start() throws Exception {
		assumeTrue(RedisServer.available(), "redis-server is not installed (.ci/run installs it)");
		postgres = TestPostgres.start();
		redis = RedisServer.start();
		emulator = MockProviderServer
			.start(Map.of("junction.mock.completion-tokens", 20, "junction.mock.latency-ms", 20));
		List<String> properties = List.of("junction.gateway.auth.admin-keys[0]=admin-secret",
				"junction.gateway.cache.enabled=false", "junction.gateway.virtual-keys.db.url=" + postgres.url(),
				"spring.data.redis.url=" + redis.url(), "junction.gateway.providers.emu.type=openai",
				"junction.gateway.providers.emu.base-url=" + emulator.openAiBaseUrl(),
				"junction.gateway.providers.emu.keys[0].value=sk-emu");
		first = RunningGateway.start(properties);
		second = RunningGateway.start(properties);
	}

	@AfterAll
	static void stop() throws Exception {
		if (first != null) {
			first.close();
			second.close();
			emulator.close();
			redis.close();
			postgres.close();
		}
	}

	@Test
	void fiftyConcurrentRequestsOnTwoGatewaysNeverSpendMoreThanTheBudgetAndOneReservation() {
		AdminApi admin = new AdminApi(first.baseUrl(), "admin-secret");
		// At gpt-4o ($2.50 in, $10 out per million), a request costs about $0.0002 and
		// reserves about $0.00023.
		JsonNode key = admin.create("{\"name\":\"shared\",\"budget\":{\"usd\":0.002,\"period\":\"monthly\"}}");
		String bearer = "Bearer " + key.path("key").asString();
		ExecutorService clients = Executors.newFixedThreadPool(50);
		List<CompletableFuture<HttpResponse<String>>> calls = new ArrayList<>();
		for (int i = 0; i < 50; i++) {
			RunningGateway target = (i % 2 == 0) ? first : second;
			calls.add(CompletableFuture
				.supplyAsync(() -> Http.post(target.baseUrl() + "/v1/chat/completions", bearer, CHAT), clients));
		}
		List<HttpResponse<String>> responses = calls.stream().map(CompletableFuture::join).toList();
		clients.shutdown();
		long ok = responses.stream().filter((response) -> response.statusCode() == 200).count();
		long refused = responses.stream()
			.filter((response) -> response.statusCode() == 429 && response.body().contains("budget_exceeded"))
			.count();
		assertThat(ok + refused).as("every request answered 200 or 429 budget_exceeded").isEqualTo(50);
		assertThat(ok).as("the budget lets some through").isBetween(5L, 10L);
		long reservation = 0;
		for (HttpResponse<String> response : responses) {
			if (response.statusCode() == 200) {
				JsonNode usage = Json.parse(response.body()).path("usage");
				reservation = Math.max(reservation, usage.path("completion_tokens").asLong() * 10_000 + 2_500 * 20);
			}
		}
		JsonNode spend = awaitRequests(admin, key.path("id").asString(), ok);
		BigDecimal spent = new BigDecimal(spend.path("usd").asString(spend.path("usd").toString()));
		assertThat(spent.movePointRight(9).longValue()).as("spent %s", spent)
			.isLessThanOrEqualTo(2_000_000 + reservation);
		assertThat(spend.path("budget").path("reserved_usd").asDouble()).as("every reservation settled").isZero();
	}

	@Test
	void aKeyRevokedOnOneGatewayIsRefusedByTheOtherOnceNotified() {
		AdminApi admin = new AdminApi(first.baseUrl(), "admin-secret");
		JsonNode key = admin.create("{\"name\":\"to-revoke\"}");
		String bearer = "Bearer " + key.path("key").asString();
		assertThat(Http.post(second.baseUrl() + "/v1/chat/completions", bearer, CHAT).statusCode()).isEqualTo(200);
		assertThat(admin.send("DELETE", "/admin/v1/keys/" + key.path("id").asString(), null).statusCode())
			.isEqualTo(200);
		await().atMost(Duration.ofSeconds(5))
			.until(() -> Http.post(second.baseUrl() + "/v1/chat/completions", bearer, CHAT).statusCode() == 401);
		assertThat(Http.post(first.baseUrl() + "/v1/chat/completions", bearer, CHAT).statusCode()).isEqualTo(401);
	}

	@Test
	void aKeysOwnRequestLimitIsSharedByTheGateways() {
		AdminApi admin = new AdminApi(second.baseUrl(), "admin-secret");
		JsonNode key = admin.create("{\"name\":\"limited\",\"rate_limit\":{\"requests_per_minute\":3}}");
		String bearer = "Bearer " + key.path("key").asString();
		List<Integer> statuses = new ArrayList<>();
		for (int i = 0; i < 6; i++) {
			RunningGateway target = (i % 2 == 0) ? first : second;
			statuses.add(Http.post(target.baseUrl() + "/v1/chat/completions", bearer, CHAT).statusCode());
		}
		assertThat(statuses).containsExactly(200, 200, 200, 429, 429, 429);
	}

	private static JsonNode awaitRequests(AdminApi admin, String id, long requests) {
		long deadline = System.nanoTime() + 10_000_000_000L;
		JsonNode spend = admin.spend(id);
		while (System.nanoTime() < deadline) {
			long recorded = 0;
			for (JsonNode day : spend.path("days")) {
				recorded += day.path("requests").asLong();
			}
			if (recorded >= requests && spend.path("budget").path("reserved_usd").asDouble() == 0) {
				return spend;
			}
			try {
				Thread.sleep(50);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException(ex);
			}
			spend = admin.spend(id);
		}
		return spend;
	}

}
