package dev.junction.gateway.ratelimit;

import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import dev.junction.gateway.support.Http;
import dev.junction.gateway.support.RedisServer;
import dev.junction.gateway.support.RunningGateway;
import dev.junction.mock.MockProviderServer;
import dev.junction.mock.stats.Route;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class RateLimitIntegrationTests {

	private static final String BODY = "{\"model\":\"mock/echo-1\",\"max_tokens\":10,"
			+ "\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";

	@Test
	void refusesRequestsOverTheBudgetWith429AndReportsTheBudgetOnEveryResponse() {
		try (RunningGateway gateway = RunningGateway
			.start(List.of("junction.gateway.rate-limit.requests=3", "junction.gateway.rate-limit.window=1h",
					"junction.gateway.auth.keys[0]=key-a", "junction.gateway.auth.keys[1]=key-b"))) {
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
	void reservesTokensFromMaxTokensAndGivesBackWhatTheAnswerDidNotUse() {
		try (RunningGateway gateway = RunningGateway.start(List.of("junction.gateway.rate-limit.tokens=100",
				"junction.gateway.rate-limit.window=1h", "junction.gateway.cache.enabled=false"))) {
			HttpResponse<String> denied = Http.post(gateway.baseUrl() + "/v1/chat/completions", null,
					withMaxTokens(500));
			assertThat(denied.statusCode()).isEqualTo(429);
			assertThat(denied.body()).contains("rate_limit_tokens");
			// Each reserves 60 of the 100 tokens and uses about 15: the next one fits
			// only if
			// the unused 45 came back. They come back as the call ends, after its
			// response is
			// written, so a request may find them a moment later; in an hour's window the
			// refill
			// gives back less than one token meanwhile.
			for (int i = 0; i < 3; i++) {
				int request = i;
				await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
					HttpResponse<String> response = Http.post(gateway.baseUrl() + "/v1/chat/completions", null,
							withMaxTokens(60));
					assertThat(response.statusCode()).as("request %d: %s", request, response.body()).isEqualTo(200);
				});
			}
		}
	}

	@Test
	void givesTheWholeReservationBackWhenTheClientGoesAway() throws Exception {
		try (MockProviderServer slow = MockProviderServer.start(Map.of("junction.mock.latency-ms", 3000));
				RunningGateway gateway = RunningGateway
					.start(List.of("junction.gateway.rate-limit.tokens=100", "junction.gateway.rate-limit.window=1h",
							"junction.gateway.cache.enabled=false", "junction.gateway.providers.slow.type=openai",
							"junction.gateway.providers.slow.base-url=" + slow.openAiBaseUrl(),
							"junction.gateway.providers.slow.keys[0].value=sk-slow"))) {
			String body = "{\"model\":\"slow/gpt-4o-mini\",\"max_tokens\":60,"
					+ "\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";
			try (Socket socket = new Socket("127.0.0.1", gateway.port())) {
				socket.getOutputStream()
					.write(("POST /v1/chat/completions HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
							+ "Content-Length: " + body.length() + "\r\n\r\n" + body)
						.getBytes(StandardCharsets.UTF_8));
				long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
				while (slow.stats().route(Route.CHAT_COMPLETIONS).requests() == 0 && System.nanoTime() < deadline) {
					Thread.sleep(20);
				}
				assertThat(slow.stats().route(Route.CHAT_COMPLETIONS).requests()).isEqualTo(1);
			}
			long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
			while (slow.stats().route(Route.CHAT_COMPLETIONS).cancelled() == 0 && System.nanoTime() < deadline) {
				Thread.sleep(20);
			}
			assertThat(slow.stats().route(Route.CHAT_COMPLETIONS).cancelled()).as("the upstream call was cancelled")
				.isEqualTo(1);
			// The reservation comes back just after the upstream call is cancelled.
			await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
				HttpResponse<String> next = Http.post(gateway.baseUrl() + "/v1/chat/completions", null, body);
				assertThat(next.statusCode())
					.as("60 more tokens fit only if the cancelled 60 came back: %s", next.body())
					.isEqualTo(200);
			});
		}
	}

	private static String withMaxTokens(int maxTokens) {
		return "{\"model\":\"mock/echo-1\",\"max_tokens\":" + maxTokens
				+ ",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";
	}

	@Test
	void twoGatewaysSharingRedisLetExactlyTheConfiguredNumberOfRequestsThrough() throws Exception {
		assumeTrue(RedisServer.available(), "redis-server is not installed (.ci/run installs it)");
		try (RedisServer redis = RedisServer.start()) {
			List<String> properties = List.of("spring.data.redis.url=" + redis.url(),
					"junction.gateway.rate-limit.requests=25", "junction.gateway.rate-limit.window=1h",
					"junction.gateway.auth.keys[0]=shared-key", "junction.gateway.cache.enabled=false");
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
		try (RunningGateway gateway = RunningGateway
			.start(List.of("spring.data.redis.url=redis://127.0.0.1:1", "spring.data.redis.timeout=200ms",
					"junction.gateway.rate-limit.requests=1", "junction.gateway.rate-limit.fail-open=true"))) {
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
