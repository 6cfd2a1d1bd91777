package dev.junction.gateway.cache;

import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;

import dev.junction.gateway.support.Http;
import dev.junction.gateway.support.Json;
import dev.junction.gateway.support.RedisServer;
import dev.junction.gateway.support.RunningGateway;
import dev.junction.mock.MockProviderServer;
import dev.junction.mock.stats.Route;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Two gateways sharing one real Redis share their response cache, within the same rules.
 */
class SharedResponseCacheIntegrationTests {

	@Test
	void gatewaysSharingRedisShareEachKeysEntriesAndNothingElse() throws Exception {
		assumeTrue(RedisServer.available(), "redis-server is not installed (.ci/run installs it)");
		try (RedisServer redis = RedisServer.start(); MockProviderServer upstream = MockProviderServer.start()) {
			List<String> properties = ResponseCacheIntegrationTests.properties(upstream,
					"junction.gateway.cache.enabled=true", "spring.data.redis.url=" + redis.url());
			try (RunningGateway first = RunningGateway.start(properties);
					RunningGateway second = RunningGateway.start(properties)) {
				String body = "{\"model\":\"up/gpt-4o-mini\",\"temperature\":0,"
						+ "\"messages\":[{\"role\":\"user\",\"content\":\"shared\"}]}";
				long before = calls(upstream);
				HttpResponse<String> miss = post(first, ResponseCacheIntegrationTests.KEY_A, body);
				HttpResponse<String> hit = post(second, ResponseCacheIntegrationTests.KEY_A, body);
				HttpResponse<String> otherKey = post(second, ResponseCacheIntegrationTests.KEY_B, body);
				assertThat(miss.headers().firstValue("x-junction-cache")).hasValue("MISS");
				assertThat(hit.headers().firstValue("x-junction-cache")).hasValue("HIT");
				assertThat(hit.body()).isEqualTo(miss.body());
				assertThat(otherKey.headers().firstValue("x-junction-cache")).hasValue("MISS");
				assertThat(otherKey.body()).isNotEqualTo(miss.body());
				assertThat(calls(upstream) - before).isEqualTo(2);

				String sampled = "{\"model\":\"up/gpt-4o-mini\",\"temperature\":1,"
						+ "\"messages\":[{\"role\":\"user\",\"content\":\"sampled\"}]}";
				post(first, ResponseCacheIntegrationTests.KEY_A, sampled);
				assertThat(post(second, ResponseCacheIntegrationTests.KEY_A, sampled).headers()
					.firstValue("x-junction-cache")).isEmpty();
			}
		}
	}

	@Test
	void gatewaysSharingRedisAndASharedNamespaceServeEveryKey() throws Exception {
		assumeTrue(RedisServer.available(), "redis-server is not installed (.ci/run installs it)");
		try (RedisServer redis = RedisServer.start(); MockProviderServer upstream = MockProviderServer.start()) {
			List<String> properties = ResponseCacheIntegrationTests.properties(upstream,
					"junction.gateway.cache.enabled=true", "junction.gateway.cache.shared-namespace=org-wide",
					"spring.data.redis.url=" + redis.url());
			try (RunningGateway first = RunningGateway.start(properties);
					RunningGateway second = RunningGateway.start(properties)) {
				String body = "{\"model\":\"up/gpt-4o-mini\",\"temperature\":0,"
						+ "\"messages\":[{\"role\":\"user\",\"content\":\"org-wide\"}]}";
				HttpResponse<String> miss = post(first, ResponseCacheIntegrationTests.KEY_A, body);
				HttpResponse<String> hit = post(second, ResponseCacheIntegrationTests.KEY_B, body);
				assertThat(miss.headers().firstValue("x-junction-cache")).hasValue("MISS");
				assertThat(hit.headers().firstValue("x-junction-cache")).hasValue("HIT");
				assertThat(hit.body()).isEqualTo(miss.body());
			}
		}
	}

	@Test
	void clearingTheCacheOnOneGatewayEmptiesItForEveryGatewaySharingRedis() throws Exception {
		assumeTrue(RedisServer.available(), "redis-server is not installed (.ci/run installs it)");
		try (RedisServer redis = RedisServer.start(); MockProviderServer upstream = MockProviderServer.start()) {
			List<String> properties = ResponseCacheIntegrationTests.properties(upstream,
					"junction.gateway.cache.enabled=true", "spring.data.redis.url=" + redis.url(),
					"junction.gateway.auth.admin-keys[0]=cache-admin");
			try (RunningGateway first = RunningGateway.start(properties);
					RunningGateway second = RunningGateway.start(properties)) {
				String body = "{\"model\":\"up/gpt-4o-mini\",\"temperature\":0,"
						+ "\"messages\":[{\"role\":\"user\",\"content\":\"cleared everywhere\"}]}";
				post(first, ResponseCacheIntegrationTests.KEY_A, body);
				post(first, ResponseCacheIntegrationTests.KEY_B, body);
				assertThat(post(second, ResponseCacheIntegrationTests.KEY_A, body).headers()
					.firstValue("x-junction-cache")).hasValue("HIT");
				JsonNode result = Json
					.parse(Http.post(second.baseUrl() + "/rpc", "Bearer cache-admin",
							"{\"jsonrpc\":\"2.0\",\"method\":\"admin.clearCache\",\"id\":1}")
						.body())
					.get("result");
				assertThat(result.get("entriesRemoved").asLong()).isEqualTo(2);
				assertThat(Json
					.parse(Http.post(first.baseUrl() + "/rpc", "Bearer cache-admin",
							"{\"jsonrpc\":\"2.0\",\"method\":\"admin.getConfig\",\"id\":2}")
						.body())
					.at("/result/config/billing/sharedThroughRedis")
					.asBoolean()).isTrue();
				assertThat(
						post(first, ResponseCacheIntegrationTests.KEY_A, body).headers().firstValue("x-junction-cache"))
					.hasValue("MISS");
				assertThat(post(second, ResponseCacheIntegrationTests.KEY_B, body).headers()
					.firstValue("x-junction-cache")).hasValue("MISS");
			}
		}
	}

	private static HttpResponse<String> post(RunningGateway gateway, String key, String body) {
		return ResponseCacheIntegrationTests.post(gateway, key, body, Map.of());
	}

	private static long calls(MockProviderServer upstream) {
		return upstream.stats().route(Route.CHAT_COMPLETIONS).requests();
	}

}
