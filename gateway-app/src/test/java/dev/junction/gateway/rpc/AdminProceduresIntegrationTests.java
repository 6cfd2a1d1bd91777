package dev.junction.gateway.rpc;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import dev.junction.gateway.support.EmulatedGateway;
import dev.junction.gateway.support.Http;
import dev.junction.gateway.support.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The admin procedures answered from the gateway's own state, over JSON-RPC, to admin
 * keys only.
 */
class AdminProceduresIntegrationTests {

	private static final String ADMIN = "Bearer admin-procedures-admin";

	private static final String USER = "Bearer admin-procedures-user";

	private static final String UPSTREAM_KEY = "sk-admin-procedures-upstream";

	@RegisterExtension
	static final EmulatedGateway gateway = EmulatedGateway.emulator(Map.of())
		.key("admin-procedures-user")
		.properties("junction.gateway.auth.admin-keys[0]=admin-procedures-admin", "junction.gateway.cache.enabled=true")
		.openAi("up", UPSTREAM_KEY)
		.properties("junction.gateway.models.fast.targets[0]=up/gpt-4o-mini");

	@Test
	void clearCacheEmptiesTheResponseCache() {
		String body = "{\"model\":\"up/gpt-4o-mini\",\"temperature\":0,\"messages\":[{\"role\":\"user\",\"content\":\"clear me\"}]}";
		assertThat(chat(body).headers().firstValue("x-junction-cache")).hasValue("MISS");
		assertThat(chat(body).headers().firstValue("x-junction-cache")).hasValue("HIT");

		JsonNode result = call(ADMIN, "admin.clearCache", "{\"target\":\"all\"}").get("result");
		assertThat(result.get("success").asBoolean()).isTrue();
		assertThat(result.get("cleared").toString()).isEqualTo("[\"responses\"]");
		assertThat(result.get("entriesRemoved").asLong()).isPositive();
		assertThat(chat(body).headers().firstValue("x-junction-cache")).hasValue("MISS");

		JsonNode nothing = call(ADMIN, "admin.clearCache", "{\"target\":\"tokens\"}").get("result");
		assertThat(nothing.get("cleared").isEmpty()).isTrue();
		assertThat(chat(body).headers().firstValue("x-junction-cache")).hasValue("HIT");
	}

	@Test
	void statisticsCountTheRequestsThroughThePipeline() {
		long before = call(ADMIN, "admin.statistics", "{}").at("/result/system/totalRequests").asLong();
		chat("{\"model\":\"up/gpt-4o-mini\",\"messages\":[{\"role\":\"user\",\"content\":\"count me\"}]}");
		chat("{\"model\":\"nowhere/gpt-4o-mini\",\"messages\":[{\"role\":\"user\",\"content\":\"fail me\"}]}");
		// A request is counted once its response is written, so the client can see it a
		// moment earlier.
		await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
			JsonNode result = call(ADMIN, "admin.statistics", "{\"days\":7}").get("result");
			assertThat(result.at("/period/days").asInt()).isEqualTo(7);
			assertThat(result.at("/system/totalRequests").asLong()).isGreaterThanOrEqualTo(before + 2);
			assertThat(result.at("/system/averageResponseTime").asDouble()).isPositive();
			assertThat(result.at("/system/errorRate").asDouble()).isBetween(0.0, 1.0).isPositive();
			assertThat(result.at("/entries/chat/totalRequests").asLong()).isGreaterThanOrEqualTo(2);
			assertThat(result.at("/system/uptime").asDouble()).isPositive();
		});
	}

	@Test
	void getConfigDescribesTheGatewayWithoutItsSecrets() {
		JsonNode all = call(ADMIN, "admin.getConfig", "{}").get("result");
		assertThat(all.at("/config/ai/providers/up/type").stringValue()).isEqualTo("openai");
		assertThat(all.at("/config/ai/providers/up/keys").asInt()).isEqualTo(1);
		assertThat(all.at("/config/ai/aliases").toString()).isEqualTo("[\"fast\"]");
		assertThat(all.at("/config/auth/gatewayKeys").asInt()).isEqualTo(1);
		assertThat(all.at("/config/auth/adminKeys").asInt()).isEqualTo(1);
		assertThat(all.at("/config/billing/cache/enabled").asBoolean()).isTrue();
		assertThat(all.at("/config/billing/sharedThroughRedis").isBoolean()).isTrue();
		assertThat(all.at("/config/billing/sharedThroughRedis").asBoolean()).isFalse();
		assertThat(all.toString()).doesNotContain(UPSTREAM_KEY, "admin-procedures-admin", "admin-procedures-user");

		JsonNode server = call(ADMIN, "admin.getConfig", "{\"section\":\"server\"}").at("/result/config");
		assertThat(server.has("server")).isTrue();
		assertThat(server.has("ai")).isFalse();
		JsonNode invalid = call(ADMIN, "admin.getConfig", "{\"section\":\"secrets\"}").get("error");
		assertThat(invalid.get("code").asInt()).isEqualTo(-32602);
	}

	@Test
	void adminProceduresRefuseCallersWithoutAnAdminKey() {
		for (String method : List.of("admin.statistics", "admin.getConfig", "admin.clearCache")) {
			assertThat(call(USER, method, "{}").at("/error/code").asInt()).as(method).isEqualTo(-32002);
			assertThat(call(null, method, "{}").at("/error/code").asInt()).as(method).isEqualTo(-32001);
		}
	}

	private static JsonNode call(String authorization, String method, String params) {
		HttpResponse<String> response = Http.post(gateway.baseUrl() + "/rpc", authorization,
				"{\"jsonrpc\":\"2.0\",\"method\":\"" + method + "\",\"params\":" + params + ",\"id\":1}");
		return Json.parse(response.body());
	}

	private static HttpResponse<String> chat(String body) {
		return Http.post(gateway.baseUrl() + "/v1/chat/completions", USER, body);
	}

}
