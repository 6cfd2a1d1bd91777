package dev.junction.gateway.rpc;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import dev.junction.gateway.support.AdminApi;
import dev.junction.gateway.support.Http;
import dev.junction.gateway.support.Json;
import dev.junction.gateway.support.RunningGateway;
import dev.junction.mock.MockProviderServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code admin.getUserInfo} over JSON-RPC: a user's virtual keys by owner or id, or a
 * configured key by its client id, with limits, budget, permissions and recorded usage,
 * never a secret; an unknown user is an error naming {@code userId}; admin keys only.
 */
class UserInfoIntegrationTests {

	private static final String ADMIN_KEY = "user-info-admin";

	private static final String USER_KEY = "user-info-user";

	private static MockProviderServer upstream;

	private static RunningGateway gateway;

	private static JsonNode teamA;

	private static JsonNode teamB;

	@BeforeAll
	static void start() {
		upstream = MockProviderServer.start(Map.of());
		gateway = RunningGateway.start(
				List.of("junction.gateway.auth.keys[0]=" + USER_KEY, "junction.gateway.auth.admin-keys[0]=" + ADMIN_KEY,
						"junction.gateway.virtual-keys.db.url=jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1",
						"junction.gateway.rate-limit.requests=1000", "junction.gateway.providers.up.type=openai",
						"junction.gateway.providers.up.base-url=" + upstream.openAiBaseUrl(),
						"junction.gateway.providers.up.keys[0].value=sk-up"));
		AdminApi admin = new AdminApi(gateway.baseUrl(), ADMIN_KEY);
		teamA = admin.create("{\"name\":\"ci\",\"owner\":\"team-a\",\"models\":[\"up/*\"],"
				+ "\"rate_limit\":{\"requests_per_minute\":60},\"budget\":{\"usd\":5,\"period\":\"monthly\"}}");
		teamB = admin.create("{\"name\":\"other\",\"owner\":\"team-b\"}");
	}

	@AfterAll
	static void stop() {
		gateway.close();
		upstream.close();
	}

	@Test
	void describesAnOwnersKeysWithTheirLimitsBudgetPermissionsAndUsage() throws InterruptedException {
		String secret = teamA.get("key").asString();
		assertThat(Http
			.post(gateway.baseUrl() + "/v1/chat/completions", "Bearer " + secret,
					"{\"model\":\"up/gpt-4o-mini\",\"messages\":[{\"role\":\"user\",\"content\":\"count me\"}]}")
			.statusCode()).isEqualTo(200);
		JsonNode info = usageOfTeamA();

		assertThat(info.get("userId").asString()).isEqualTo("team-a");
		assertThat(info.get("type").asString()).isEqualTo("user");
		assertThat(info.get("lastAccess").asString()).isEqualTo(LocalDate.now(ZoneOffset.UTC).toString());
		assertThat(info.get("permissions").toString()).isEqualTo("[\"ai:generate\",\"models:up/*\"]");
		assertThat(info.at("/usage/totalTokens").asLong()).isPositive();
		assertThat(info.at("/usage/estimatedTotalCostUsd").asDouble()).isPositive();
		assertThat(info.at("/usage/providerBreakdown/0/provider").asString()).isEqualTo("up");
		assertThat(info.at("/usage/providerBreakdown/0/requests").asLong()).isEqualTo(1);
		assertThat(info.get("keys")).hasSize(1);
		JsonNode key = info.at("/keys/0");
		assertThat(key.get("id").asString()).isEqualTo(teamA.get("id").asString());
		assertThat(key.get("name").asString()).isEqualTo("ci");
		assertThat(key.get("status").asString()).isEqualTo("active");
		assertThat(key.at("/rateLimit/requestsPerMinute").asLong()).isEqualTo(60);
		assertThat(key.at("/budget/usd").asDouble()).isEqualTo(5.0);
		assertThat(key.at("/budget/spentUsd").asDouble()).isPositive();
		assertThat(info.at("/gatewayRateLimit/requests").asLong()).isEqualTo(1000);
		assertThat(info.toString()).doesNotContain(secret, teamB.get("id").asString(), ADMIN_KEY, USER_KEY, "sk-up");

		JsonNode brief = call("Bearer " + ADMIN_KEY, "{\"userId\":\"team-a\"}").get("result");
		assertThat(brief.has("permissions")).isFalse();
		assertThat(brief.has("usage")).isFalse();
	}

	@Test
	void findsOneVirtualKeyByItsId() {
		String id = teamB.get("id").asString();
		JsonNode info = call("Bearer " + ADMIN_KEY, "{\"userId\":\"" + id + "\",\"includeUsage\":true}").get("result");
		assertThat(info.at("/keys/0/owner").asString()).isEqualTo("team-b");
		assertThat(info.get("lastAccess").isNull()).isTrue();
		assertThat(info.at("/usage/totalRequests").asLong()).isZero();
		assertThat(info.toString()).doesNotContain(teamB.get("key").asString());
	}

	@Test
	void findsConfiguredKeysByTheirClientId() {
		JsonNode user = call("Bearer " + ADMIN_KEY,
				"{\"userId\":\"" + clientId(USER_KEY) + "\",\"includePermissions\":true}")
			.get("result");
		assertThat(user.get("type").asString()).isEqualTo("user");
		assertThat(user.get("permissions").toString()).isEqualTo("[\"ai:generate\",\"models:*\"]");
		assertThat(user.at("/keys/0/kind").asString()).isEqualTo("configured");
		JsonNode admin = call("Bearer " + ADMIN_KEY, "{\"userId\":\"" + clientId(ADMIN_KEY) + "\"}").get("result");
		assertThat(admin.get("type").asString()).isEqualTo("admin");
		assertThat(user.toString() + admin).doesNotContain(USER_KEY, ADMIN_KEY);
	}

	@Test
	void countsAConfiguredKeysCallsTokensAndLastAccessSinceStart() {
		String other = clientId(ADMIN_KEY);
		JsonNode before = call("Bearer " + ADMIN_KEY, "{\"userId\":\"" + other + "\",\"includeUsage\":true}")
			.get("result");
		Instant start = Instant.now().truncatedTo(ChronoUnit.SECONDS);
		for (int i = 0; i < 2; i++) {
			assertThat(Http
				.post(gateway.baseUrl() + "/v1/chat/completions", "Bearer " + USER_KEY,
						"{\"model\":\"up/gpt-4o-mini\",\"messages\":[{\"role\":\"user\",\"content\":\"count " + i
								+ "\"}]}")
				.statusCode()).isEqualTo(200);
		}
		JsonNode info = call("Bearer " + ADMIN_KEY, "{\"userId\":\"" + clientId(USER_KEY) + "\",\"includeUsage\":true}")
			.get("result");
		assertThat(info.at("/usage/totalRequests").asLong()).as(info.toString()).isEqualTo(2);
		assertThat(info.at("/usage/totalTokens").asLong()).isPositive();
		assertThat(info.at("/usage/scope").asString()).contains("since it started");
		assertThat(Instant.parse(info.at("/usage/since").asString())).isBefore(start.plusSeconds(1));
		assertThat(Instant.parse(info.get("lastAccess").asString())).isAfterOrEqualTo(start);
		JsonNode after = call("Bearer " + ADMIN_KEY, "{\"userId\":\"" + other + "\",\"includeUsage\":true}")
			.get("result");
		assertThat(after.get("usage")).as("another key's calls are not this one's").isEqualTo(before.get("usage"));
		assertThat(after.get("lastAccess")).isEqualTo(before.get("lastAccess"));
	}

	@Test
	void anUnknownUserIsAnErrorNamingUserId() {
		JsonNode error = call("Bearer " + ADMIN_KEY, "{\"userId\":\"team-nobody\"}").get("error");
		assertThat(error.get("code").asInt()).isEqualTo(-32602);
		assertThat(error.at("/data/param").asString()).isEqualTo("userId");
		assertThat(error.at("/data/message").asString()).contains("No virtual key");

		JsonNode secret = call("Bearer " + ADMIN_KEY, "{\"userId\":\"" + teamA.get("key").asString() + "\"}")
			.get("error");
		assertThat(secret.get("code").asInt()).isEqualTo(-32602);
		assertThat(secret.toString()).doesNotContain(teamA.get("key").asString());
	}

	@Test
	void refusesCallersWithoutAnAdminKey() {
		assertThat(call("Bearer " + USER_KEY, "{\"userId\":\"team-a\"}").at("/error/code").asInt()).isEqualTo(-32002);
		assertThat(call("Bearer " + teamB.get("key").asString(), "{\"userId\":\"team-a\"}").at("/error/code").asInt())
			.isEqualTo(-32002);
		assertThat(call(null, "{\"userId\":\"team-a\"}").at("/error/code").asInt()).isEqualTo(-32001);
	}

	/**
	 * team-a's info once its spend is recorded (after the answer, off the request's
	 * path).
	 */
	private static JsonNode usageOfTeamA() throws InterruptedException {
		long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
		while (true) {
			JsonNode info = call("Bearer " + ADMIN_KEY,
					"{\"userId\":\"team-a\",\"includePermissions\":true,\"includeUsage\":true}")
				.get("result");
			if (info.at("/usage/totalRequests").asLong() == 1 || System.nanoTime() > deadline) {
				return info;
			}
			Thread.sleep(50);
		}
	}

	/** The client id of a configured key, as the gateway's logs name it. */
	static String clientId(String key) throws RuntimeException {
		try {
			byte[] digest = MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
			return "key:" + HexFormat.of().formatHex(digest, 0, 6);
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static JsonNode call(String authorization, String params) {
		return Json.parse(Http
			.post(gateway.baseUrl() + "/rpc", authorization,
					"{\"jsonrpc\":\"2.0\",\"method\":\"admin.getUserInfo\",\"params\":" + params + ",\"id\":1}")
			.body());
	}

}
