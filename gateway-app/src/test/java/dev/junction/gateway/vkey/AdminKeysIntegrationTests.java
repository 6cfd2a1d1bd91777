package dev.junction.gateway.vkey;

import java.net.http.HttpResponse;
import java.util.List;
import java.util.UUID;

import dev.junction.gateway.support.AdminApi;
import dev.junction.gateway.support.Http;
import dev.junction.gateway.support.Json;
import dev.junction.gateway.support.RunningGateway;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/** The admin API for virtual keys on a real gateway with its embedded H2 store. */
class AdminKeysIntegrationTests {

	private static final String CHAT = "{\"model\":\"mock/echo-1\",\"max_tokens\":10,"
			+ "\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";

	private static RunningGateway gateway;

	private static AdminApi admin;

	@BeforeAll
	static void start() {
		gateway = RunningGateway.start(List.of("junction.gateway.auth.admin-keys[0]=admin-secret",
				"junction.gateway.auth.keys[0]=team-key", "junction.gateway.cache.enabled=false",
				"junction.gateway.virtual-keys.db.url=jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1"));
		admin = new AdminApi(gateway.baseUrl(), "admin-secret");
	}

	@AfterAll
	static void stop() {
		gateway.close();
	}

	@Test
	void createsAKeyAndShowsItsSecretOnceOnly() {
		HttpResponse<String> created = admin.send("POST", "/admin/v1/keys",
				"{\"name\":\"team-a\",\"owner\":\"alice\",\"models\":[\"mock/*\"],\"budget\":{\"usd\":5.0,\"period\":\"monthly\"}}");
		assertThat(created.statusCode()).isEqualTo(201);
		JsonNode key = Json.parse(created.body());
		assertThat(key.path("id").asString()).startsWith("vk_");
		assertThat(key.path("key").asString()).startsWith("jk-" + key.path("id").asString() + ".");
		assertThat(key.path("budget").path("usd").asDouble()).isEqualTo(5.0);
		assertThat(key.path("budget").path("period").asString()).isEqualTo("monthly");
		assertThat(key.path("status").asString()).isEqualTo("active");
		String id = key.path("id").asString();
		HttpResponse<String> read = admin.send("GET", "/admin/v1/keys/" + id, null);
		assertThat(read.statusCode()).isEqualTo(200);
		assertThat(Json.parse(read.body()).has("key")).isFalse();
		assertThat(read.body()).doesNotContain(key.path("key").asString());
		HttpResponse<String> list = admin.send("GET", "/admin/v1/keys", null);
		assertThat(list.body()).contains(id).doesNotContain(key.path("key").asString());
	}

	@Test
	void aVirtualKeyCallsTheModelsItIsAllowedAndNoOthers() {
		JsonNode key = admin.create("{\"name\":\"mock-only\",\"models\":[\"mock/*\"]}");
		String bearer = "Bearer " + key.path("key").asString();
		assertThat(Http.post(gateway.baseUrl() + "/v1/chat/completions", bearer, CHAT).statusCode()).isEqualTo(200);
		JsonNode other = admin.create("{\"name\":\"other-only\",\"models\":[\"emu/*\"]}");
		HttpResponse<String> refused = Http.post(gateway.baseUrl() + "/v1/chat/completions",
				"Bearer " + other.path("key").asString(), CHAT);
		assertThat(refused.statusCode()).isEqualTo(403);
		assertThat(Json.parse(refused.body()).path("error").path("message").asString()).contains("mock/echo-1");
	}

	@Test
	void recordsTheSpendOfAModelWhateverTheLengthOfItsName() {
		JsonNode key = admin.create("{\"name\":\"long-model\"}");
		String model = "mock/" + "m".repeat(400);
		HttpResponse<String> answer = Http.post(gateway.baseUrl() + "/v1/chat/completions",
				"Bearer " + key.path("key").asString(), CHAT.replace("mock/echo-1", model));
		assertThat(answer.statusCode()).isEqualTo(200);
		admin.awaitSpend(key.path("id").asString(), 1);
	}

	@Test
	void aRevokedKeyIsRefusedAndARotatedKeysOldSecretToo() {
		JsonNode key = admin.create("{\"name\":\"short-lived\"}");
		String id = key.path("id").asString();
		String first = "Bearer " + key.path("key").asString();
		assertThat(Http.post(gateway.baseUrl() + "/v1/chat/completions", first, CHAT).statusCode()).isEqualTo(200);
		HttpResponse<String> rotated = admin.send("POST", "/admin/v1/keys/" + id + "/rotate", null);
		assertThat(rotated.statusCode()).isEqualTo(200);
		String second = "Bearer " + Json.parse(rotated.body()).path("key").asString();
		assertThat(Http.post(gateway.baseUrl() + "/v1/chat/completions", first, CHAT).statusCode()).isEqualTo(401);
		assertThat(Http.post(gateway.baseUrl() + "/v1/chat/completions", second, CHAT).statusCode()).isEqualTo(200);
		HttpResponse<String> revoked = admin.send("DELETE", "/admin/v1/keys/" + id, null);
		assertThat(revoked.statusCode()).isEqualTo(200);
		assertThat(Json.parse(revoked.body()).path("status").asString()).isEqualTo("revoked");
		HttpResponse<String> refused = Http.post(gateway.baseUrl() + "/v1/chat/completions", second, CHAT);
		assertThat(refused.statusCode()).isEqualTo(401);
		assertThat(Json.parse(refused.body()).path("error").path("code").asString()).isEqualTo("invalid_api_key");
	}

	@Test
	void anExpiredKeyIsRefused() {
		JsonNode key = admin.create("{\"name\":\"expired\",\"expires_at\":\"2020-01-01T00:00:00Z\"}");
		assertThat(key.path("status").asString()).isEqualTo("expired");
		assertThat(Http.post(gateway.baseUrl() + "/v1/chat/completions", "Bearer " + key.path("key").asString(), CHAT)
			.statusCode()).isEqualTo(401);
	}

	@Test
	void updatesWhatAKeyMayDo() {
		JsonNode key = admin.create("{\"name\":\"changing\",\"models\":[\"emu/*\"]}");
		String bearer = "Bearer " + key.path("key").asString();
		assertThat(Http.post(gateway.baseUrl() + "/v1/chat/completions", bearer, CHAT).statusCode()).isEqualTo(403);
		HttpResponse<String> updated = admin.send("PATCH", "/admin/v1/keys/" + key.path("id").asString(),
				"{\"models\":[\"mock/echo-*\"],\"rate_limit\":{\"requests_per_minute\":1}}");
		assertThat(updated.statusCode()).isEqualTo(200);
		assertThat(Json.parse(updated.body()).path("name").asString()).isEqualTo("changing");
		assertThat(Http.post(gateway.baseUrl() + "/v1/chat/completions", bearer, CHAT).statusCode()).isEqualTo(200);
		HttpResponse<String> limited = Http.post(gateway.baseUrl() + "/v1/chat/completions", bearer, CHAT);
		assertThat(limited.statusCode()).isEqualTo(429);
		assertThat(limited.body()).contains("rate_limit_requests");
	}

	@Test
	void onlyAnAdminKeyReachesTheAdminApi() {
		JsonNode key = admin.create("{\"name\":\"not-admin\"}");
		assertThat(admin.send("GET", "/admin/v1/keys", null, null).statusCode()).isEqualTo(401);
		assertThat(admin.send("GET", "/admin/v1/keys", null, "Bearer team-key").statusCode()).isEqualTo(403);
		HttpResponse<String> virtual = admin.send("GET", "/admin/v1/keys", null,
				"Bearer " + key.path("key").asString());
		assertThat(virtual.statusCode()).isEqualTo(403);
		assertThat(Json.parse(virtual.body()).path("error").path("type").asString()).isEqualTo("permission_error");
		assertThat(admin
			.send("GET", "/admin/v1/keys/" + key.path("id").asString() + "/spend", null,
					"Bearer " + key.path("key").asString())
			.statusCode()).isEqualTo(403);
	}

	@Test
	void refusesBadKeyDefinitionsWithTheFieldAtFault() {
		assertBadRequest("{}", "name");
		assertBadRequest("{\"name\":\"x\",\"budget\":{\"usd\":5,\"period\":\"weekly\"}}", "budget.period");
		assertBadRequest("{\"name\":\"x\",\"budget\":{\"usd\":\"five\"}}", "budget");
		assertBadRequest("{\"name\":\"x\",\"rate_limit\":{\"requests_per_minute\":-1}}",
				"rate_limit.requests_per_minute");
		assertBadRequest("{\"name\":\"x\",\"expires_at\":\"tomorrow\"}", "expires_at");
		assertBadRequest("{\"name\":\"x\",\"colour\":\"red\"}", "colour");
		assertBadRequest("{\"name\":\"x\",\"owner\":\"" + "o".repeat(201) + "\"}", "owner");
		assertBadRequest("{\"name\":\"x\",\"models\":[\"" + "m".repeat(2000) + "\",\"" + "n".repeat(2001) + "\"]}",
				"models");
		HttpResponse<String> malformed = admin.send("POST", "/admin/v1/keys", "{\"name\":");
		assertThat(malformed.statusCode()).isEqualTo(400);
		assertThat(admin.send("GET", "/admin/v1/keys/vk_missing", null).statusCode()).isEqualTo(404);
	}

	private static void assertBadRequest(String body, String param) {
		HttpResponse<String> response = admin.send("POST", "/admin/v1/keys", body);
		assertThat(response.statusCode()).as(body).isEqualTo(400);
		JsonNode error = Json.parse(response.body()).path("error");
		assertThat(error.path("type").asString()).isEqualTo("invalid_request_error");
		assertThat(error.path("param").asString()).as(response.body()).isEqualTo(param);
	}

	@Test
	void theAdminApiIsOffWithoutAnAdminKey() {
		try (RunningGateway open = RunningGateway.start(List
			.of("junction.gateway.virtual-keys.db.url=jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1"))) {
			HttpResponse<String> refused = new AdminApi(open.baseUrl(), "anything").send("POST", "/admin/v1/keys",
					"{\"name\":\"x\"}");
			assertThat(refused.statusCode()).isEqualTo(403);
			assertThat(refused.body()).contains("junction.gateway.auth.admin-keys");
		}
		try (RunningGateway plain = RunningGateway.start(List.of())) {
			HttpResponse<String> refused = new AdminApi(plain.baseUrl(), "anything").send("GET", "/admin/v1/keys",
					null);
			assertThat(refused.statusCode()).isEqualTo(403);
			assertThat(Json.parse(refused.body()).path("error").path("message").asString())
				.contains("junction.gateway.auth.admin-keys");
		}
	}

}
