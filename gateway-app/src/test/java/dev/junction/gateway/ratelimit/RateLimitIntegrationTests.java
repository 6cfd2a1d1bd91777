package dev.junction.gateway.ratelimit;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import dev.junction.gateway.support.Http;
import dev.junction.gateway.support.RedisServer;
import dev.junction.gateway.support.RunningGateway;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class RateLimitIntegrationTests {

	private static final String BODY = "{\"model\":\"mock/echo-1\",\"max_tokens\":10,"
			+ "\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";

	@Test
	void refusesRequestsOverTheBudgetWith429AndReportsTheBudgetOnEveryResponse() {
		try (RunningGateway gateway = RunningGateway.start(List.of("junction.rate-limit.requests=3",
				"junction.rate-limit.window=1h", "junction.auth.keys[0]=key-a", "junction.auth.keys[1]=key-b"))) {
			for (int i = 0; i < 3; i++) {
				HttpResponse<String> response = post(gateway, "key-a");
				assertThat(response.statusCode()).isEqualTo(200);
				assertThat(response.headers().firstValue("x-ratelimit-limit")).hasValue("3");
				assertThat(response.headers().firstValue("x-ratelimit-remaining")).hasValue(Integer.toString(2 - i));
				assertThat(response.headers().firstValue("x-ratelimit-reset")).isPresent();
			}
			HttpResponse<String> denied = post(gateway, "key-a");
			assertThat(denied.statusCode()).isEqualTo(429);
			assertThat(denied.body()).contains("\"type\":\"rate_limit_error\"").contains("rate_limit_requests");
			assertThat(denied.headers().firstValue("retry-after")).isPresent();
			assertThat(denied.headers().firstValue("x-ratelimit-remaining")).hasValue("0");
			assertThat(post(gateway, "key-b").statusCode()).as("another key has its own budget").isEqualTo(200);
		}
	}

	@Test
	void reservesTokensFromMaxTokensAndRefusesWhatTheBudgetCannotCover() {
		try (RunningGateway gateway = RunningGateway.start(List.of("junction.rate-limit.tokens=100",
				"junction.rate-limit.window=1h", "junction.cache.enabled=false"))) {
			String big = "{\"model\":\"mock/echo-1\",\"max_tokens\":500,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";
			HttpResponse<String> denied = Http.post(gateway.baseUrl() + "/v1/chat/completions", null, big);
			assertThat(denied.statusCode()).isEqualTo(429);
			assertThat(denied.body()).contains("rate_limit_tokens");
			for (int i = 0; i < 3; i++) {
				assertThat(post(gateway, null).statusCode()).as("small requests use only their real usage")
					.isEqualTo(200);
			}
		}
	}

	@Test
	void twoGatewaysSharingRedisLetExactlyTheConfiguredNumberOfRequestsThrough() throws Exception {
		assumeTrue(RedisServer.available(), "redis-server is not installed (.ci/run installs it)");
		try (RedisServer redis = RedisServer.start()) {
			List<String> properties = List.of("junction.redis.url=" + redis.url(), "junction.rate-limit.requests=25",
					"junction.rate-limit.window=1h", "junction.auth.keys[0]=shared-key", "junction.cache.enabled=false");
			try (RunningGateway first = RunningGateway.start(properties);
					RunningGateway second = RunningGateway.start(properties)) {
				List<CompletableFuture<Integer>> calls = new ArrayList<>();
				for (int i = 0; i < 60; i++) {
					RunningGateway target = (i % 2 == 0) ? first : second;
					calls.add(CompletableFuture.supplyAsync(() -> post(target, "shared-key").statusCode()));
				}
				List<Integer> statuses = calls.stream().map(CompletableFuture::join).toList();
				assertThat(statuses).as("statuses %s", statuses).filteredOn((status) -> status == 200).hasSize(25);
				assertThat(statuses).as("statuses %s", statuses).filteredOn((status) -> status == 429).hasSize(35);
			}
		}
	}

	@Test
	void failsOpenWhenRedisIsUnreachableAndCountsIt() {
		try (RunningGateway gateway = RunningGateway.start(List.of("junction.redis.url=redis://127.0.0.1:1",
				"junction.redis.timeout=200ms", "junction.rate-limit.requests=1", "junction.rate-limit.fail-open=true"))) {
			assertThat(post(gateway, null).statusCode()).isEqualTo(200);
			assertThat(post(gateway, null).statusCode()).isEqualTo(200);
			assertThat(Http.get(gateway.baseUrl() + "/actuator/prometheus").body())
				.containsPattern("junction_ratelimit_store_errors_total\\{[^}]*decision=\"allowed\"[^}]*} [1-9]");
		}
	}

	private static HttpResponse<String> post(RunningGateway gateway, String key) {
		return Http.post(gateway.baseUrl() + "/v1/chat/completions", (key != null) ? "Bearer " + key : null, BODY);
	}

}
