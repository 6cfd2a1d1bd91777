package dev.junction.mock.auth;

import java.util.List;
import java.util.Map;

import dev.junction.mock.MockProviderServer;
import dev.junction.mock.stats.Route;
import dev.junction.mock.support.Requests;
import dev.junction.mock.support.TestHttp;
import dev.junction.mock.support.TestHttp.Response;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

class ApiKeyIntegrationTests {

	private static MockProviderServer server;

	private static TestHttp http;

	@BeforeAll
	static void start() {
		server = MockProviderServer.start(Map.of("junction.mock.api-keys", List.of("sk-first-1111", "sk-second-2222")));
		http = TestHttp.of(server);
	}

	@AfterAll
	static void stop() {
		server.close();
	}

	@Test
	void acceptsAConfiguredKeyAsBearerAndEchoesItsSuffix() {
		Response response = http.post("/v1/chat/completions", Requests.openAi("hi", ""),
				Map.of("Authorization", "Bearer sk-second-2222"));

		assertThat(response.status()).isEqualTo(200);
		assertThat(response.headers().get("x-mock-key-suffix")).isEqualTo("2222");
	}

	@Test
	void acceptsAConfiguredKeyAsXApiKey() {
		Response response = http.post("/v1/messages", Requests.anthropic("hi", ""),
				Map.of("x-api-key", "sk-first-1111", "anthropic-version", "2023-06-01"));

		assertThat(response.status()).isEqualTo(200);
		assertThat(response.headers().get("x-mock-key-suffix")).isEqualTo("1111");
	}

	@Test
	void rejectsAWrongKeyWith401InOpenAiShape() {
		Response response = http.post("/v1/chat/completions", Requests.openAi("hi", ""),
				Map.of("Authorization", "Bearer sk-wrong-9999"));

		assertThat(response.status()).isEqualTo(401);
		assertThat(response.headers().get("x-mock-key-suffix")).isEqualTo("9999");
		JsonNode error = response.json().path("error");
		assertThat(error.path("type").stringValue()).isEqualTo("invalid_request_error");
		assertThat(error.path("code").stringValue()).isEqualTo("invalid_api_key");
		assertThat(error.path("message").stringValue()).doesNotContain("sk-wrong");
	}

	@Test
	void rejectsAMissingKeyWith401InAnthropicShape() {
		Response response = http.post("/v1/messages", Requests.anthropic("hi", ""));

		assertThat(response.status()).isEqualTo(401);
		assertThat(response.headers().get("x-mock-key-suffix")).isNull();
		assertThat(response.json().path("type").stringValue()).isEqualTo("error");
		assertThat(response.json().path("error").path("type").stringValue()).isEqualTo("authentication_error");
	}

	@Test
	void countsRequestsPerKeySuffixSoKeyRotationCanBeVerified() {
		server.resetStats();
		for (String key : List.of("sk-first-1111", "sk-second-2222", "sk-first-1111")) {
			http.post("/v1/chat/completions", Requests.openAi("hi", ""), Map.of("Authorization", "Bearer " + key));
		}

		assertThat(server.stats().requestsWithKeySuffix("1111")).isEqualTo(2);
		assertThat(server.stats().requestsWithKeySuffix("2222")).isEqualTo(1);
		assertThat(server.stats().route(Route.CHAT_COMPLETIONS).requests()).isEqualTo(3);
		JsonNode stats = http.get("/mock/stats", Map.of()).json();
		assertThat(stats.path("keys").path("1111").intValue()).isEqualTo(2);
	}

	@Test
	void acceptsAnyKeyWhenNoneIsConfigured() {
		try (MockProviderServer open = MockProviderServer.start()) {
			Response response = TestHttp.of(open)
				.post("/v1/chat/completions", Requests.openAi("hi", ""),
						Map.of("Authorization", "Bearer anything-abcd"));

			assertThat(response.status()).isEqualTo(200);
			assertThat(response.headers().get("x-mock-key-suffix")).isEqualTo("abcd");
			assertThat(TestHttp.of(open).post("/v1/chat/completions", Requests.openAi("hi", "")).status())
				.isEqualTo(200);
		}
	}

}
