package dev.junction.gateway.cache;

import java.net.http.HttpResponse;
import java.util.List;

import dev.junction.gateway.support.RedisServer;
import dev.junction.gateway.support.RunningGateway;
import dev.junction.mock.MockProviderServer;
import dev.junction.mock.stats.Route;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** Two gateways sharing one real Redis share their response cache. */
class SharedResponseCacheIntegrationTests {

	@Test
	void gatewaysSharingRedisShareTheirCache() throws Exception {
		assumeTrue(RedisServer.available(), "redis-server is not installed (.ci/run installs it)");
		try (RedisServer redis = RedisServer.start(); MockProviderServer upstream = MockProviderServer.start()) {
			List<String> properties = List.of("junction.redis.url=" + redis.url(), "junction.providers.up.type=openai",
					"junction.providers.up.base-url=" + upstream.openAiBaseUrl(),
					"junction.providers.up.keys[0].value=sk-a");
			try (RunningGateway first = RunningGateway.start(properties);
					RunningGateway second = RunningGateway.start(properties)) {
				String body = "{\"model\":\"up/gpt-4o-mini\",\"messages\":[{\"role\":\"user\",\"content\":\"shared\"}]}";
				long before = upstream.stats().route(Route.CHAT_COMPLETIONS).requests();
				HttpResponse<String> miss = ResponseCacheIntegrationTests.post(first, body, null);
				HttpResponse<String> hit = ResponseCacheIntegrationTests.post(second, body, null);
				assertThat(miss.headers().firstValue("x-junction-cache")).hasValue("MISS");
				assertThat(hit.headers().firstValue("x-junction-cache")).hasValue("HIT");
				assertThat(hit.body()).isEqualTo(miss.body());
				assertThat(upstream.stats().route(Route.CHAT_COMPLETIONS).requests() - before).isEqualTo(1);
			}
		}
	}

}
