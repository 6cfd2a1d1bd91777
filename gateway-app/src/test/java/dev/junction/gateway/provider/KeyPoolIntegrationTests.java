package dev.junction.gateway.provider;

import java.net.ServerSocket;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;

import dev.junction.gateway.support.Http;
import dev.junction.gateway.support.Json;
import dev.junction.gateway.support.RunningGateway;
import dev.junction.mock.MockProviderServer;
import dev.junction.mock.config.MockProperties;
import dev.junction.mock.stats.Route;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Upstream keys refused by the provider leave the rotation, show in health and metrics,
 * and come back.
 */
class KeyPoolIntegrationTests {

	@Test
	void aRefusedKeyIsProbedAfterItsCooldownAndComesBackOnceTheProviderAcceptsItAgain() throws Exception {
		int port;
		try (ServerSocket socket = new ServerSocket(0)) {
			port = socket.getLocalPort();
		}
		MockProviderServer refusing = MockProviderServer
			.start(MockProperties.bind(Map.of("junction.mock.api-keys", "sk-someone-else")), "127.0.0.1", port);
		try (RunningGateway gateway = RunningGateway.start(List.of("junction.gateway.providers.solo.type=openai",
				"junction.gateway.providers.solo.base-url=http://127.0.0.1:" + port + "/v1",
				"junction.gateway.providers.solo.keys[0].value=sk-solo-secret",
				"junction.gateway.providers.solo.key-cooldown=3s"))) {
			HttpResponse<String> refused = chat(gateway);
			assertThat(refused.statusCode()).isEqualTo(502);
			assertThat(error(refused).path("message").asString()).contains("refused the gateway's credentials");

			long calls = refusing.stats().route(Route.CHAT_COMPLETIONS).requests();
			HttpResponse<String> noKey = chat(gateway);
			assertThat(noKey.statusCode()).isEqualTo(503);
			assertThat(error(noKey).path("type").asString()).isEqualTo("server_error");
			assertThat(error(noKey).path("code").asString()).isEqualTo("no_usable_provider_key");
			assertThat(error(noKey).path("message").asString()).contains("refused the gateway's own API key")
				.contains("not yours")
				.doesNotContain("overloaded");
			assertThat(noKey.headers().firstValue("retry-after")).isPresent();
			assertThat(refusing.stats().route(Route.CHAT_COMPLETIONS).requests()).as("no upstream call")
				.isEqualTo(calls);

			JsonNode providers = systemHealth(gateway).path("dependencies").path("providers");
			assertThat(providers.path("status").asString()).isEqualTo("down");
			JsonNode out = providers.path("keys").path("solo").path("outOfRotation").path(0);
			assertThat(out.path("key").asString()).isEqualTo("key0");
			assertThat(out.path("state").asString()).isEqualTo("refused");
			assertThat(out.path("upstreamStatus").asInt()).isEqualTo(401);
			assertThat(out.path("probeAt").asString()).isNotEmpty();
			HttpResponse<String> actuator = Http.get(gateway.baseUrl() + "/actuator/health");
			assertThat(actuator.statusCode()).isEqualTo(200);
			assertThat(Json.parse(actuator.body()).path("components").path("providers").path("status").asString())
				.isEqualTo("DEGRADED");
			assertThat(Json.parse(actuator.body()).path("status").asString()).as("serving, degraded")
				.isEqualTo("DEGRADED");
			String metrics = Http.get(gateway.baseUrl() + "/actuator/prometheus").body();
			assertThat(metrics)
				.contains("junction_provider_keys{application=\"gateway-app\",provider=\"solo\",state=\"refused\"} 1.0")
				.contains(
						"junction_provider_keys{application=\"gateway-app\",provider=\"solo\",state=\"in_rotation\"} 0.0")
				.containsPattern(
						"junction_provider_key_refusals_total\\{[^}]*key=\"key0\",provider=\"solo\",status=\"401\"} 1.0")
				.doesNotContain("sk-solo-secret");

			Thread.sleep(3100);
			assertThat(chat(gateway).statusCode()).as("a failed probe").isEqualTo(502);
			assertThat(chat(gateway).statusCode()).as("out for another cool-down").isEqualTo(503);

			refusing.close();
			try (MockProviderServer accepting = MockProviderServer.start(MockProperties.defaults(), "127.0.0.1",
					port)) {
				Thread.sleep(3100);
				assertThat(chat(gateway).statusCode()).as("the probe succeeds").isEqualTo(200);
				assertThat(chat(gateway).statusCode()).isEqualTo(200);
				assertThat(accepting.stats().route(Route.CHAT_COMPLETIONS).requests()).isEqualTo(2);
				JsonNode healthy = systemHealth(gateway).path("dependencies").path("providers");
				assertThat(healthy.path("status").asString()).isEqualTo("up");
				assertThat(healthy.path("keys").path("solo").path("inRotation").asInt()).isEqualTo(1);
				assertThat(Http.get(gateway.baseUrl() + "/actuator/prometheus").body()).contains(
						"junction_provider_keys{application=\"gateway-app\",provider=\"solo\",state=\"in_rotation\"} 1.0")
					.containsPattern(
							"junction_provider_key_refusals_total\\{[^}]*key=\"key0\",provider=\"solo\",status=\"401\"} 2.0");
			}
		}
		finally {
			refusing.close();
		}
	}

	@Test
	void aRefusedKeyAndItsProbesCostNoRequestWhileAnotherKeyServes() throws Exception {
		try (MockProviderServer upstream = MockProviderServer.start(Map.of("junction.mock.api-keys", "sk-pair-good"));
				RunningGateway gateway = RunningGateway.start(List.of("junction.gateway.providers.pair.type=openai",
						"junction.gateway.providers.pair.base-url=" + upstream.openAiBaseUrl(),
						"junction.gateway.providers.pair.keys[0].value=sk-pair-bad",
						"junction.gateway.providers.pair.keys[1].value=sk-pair-good",
						"junction.gateway.providers.pair.key-cooldown=300ms"))) {
			for (int i = 0; i < 24; i++) {
				HttpResponse<String> response = chat(gateway, "pair", i % 2 == 0);
				assertThat(response.statusCode()).as("request %d: %s", i, response.body()).isEqualTo(200);
				Thread.sleep(50);
			}
			assertThat(upstream.stats().requestsWithKeySuffix("-bad")).as("the first refusal and later probes")
				.isGreaterThanOrEqualTo(2);
			assertThat(upstream.stats().requestsWithKeySuffix("good")).isGreaterThanOrEqualTo(24);
			JsonNode pair = systemHealth(gateway).path("dependencies").path("providers").path("keys").path("pair");
			assertThat(pair.path("status").asString()).isEqualTo("degraded");
			assertThat(pair.path("inRotation").asInt()).isEqualTo(1);
		}
	}

	private static HttpResponse<String> chat(RunningGateway gateway) {
		return chat(gateway, "solo", false);
	}

	private static HttpResponse<String> chat(RunningGateway gateway, String provider, boolean stream) {
		return Http.post(gateway.baseUrl() + "/v1/chat/completions", null, "{\"model\":\"" + provider
				+ "/gpt-4o-mini\",\"stream\":" + stream + ",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");
	}

	private static JsonNode error(HttpResponse<String> response) {
		return Json.parse(response.body()).path("error");
	}

	private static JsonNode systemHealth(RunningGateway gateway) {
		HttpResponse<String> response = Http.post(gateway.baseUrl() + "/rpc", null,
				"{\"jsonrpc\":\"2.0\",\"method\":\"system.health\",\"id\":1}");
		return Json.parse(response.body()).path("result");
	}

}
