package dev.junction.gateway.resilience;

import java.net.ServerSocket;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import dev.junction.gateway.support.GatewayFixture;
import dev.junction.gateway.support.Http;
import dev.junction.mock.MockProviderServer;
import dev.junction.mock.config.MockProperties;
import dev.junction.mock.stats.Route;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Fallback chains, circuit breakers, key rotation and provider queues against real
 * emulators.
 */
class ResilienceIntegrationTests {

	private static MockProviderServer healthy;

	private static MockProviderServer failing;

	private static MockProviderServer slow;

	private static MockProviderServer keyed;

	private static MockProviderServer refusing;

	private static int flakyPort;

	private static GatewayFixture gateway;

	@BeforeAll
	static void start() throws Exception {
		healthy = MockProviderServer.start();
		failing = MockProviderServer.start(Map.of("junction.mock.error-rate", 1.0, "junction.mock.error-status", 503));
		slow = MockProviderServer.start(Map.of("junction.mock.latency-ms", 3000));
		keyed = MockProviderServer.start(Map.of("junction.mock.api-keys", "sk-good"));
		refusing = MockProviderServer.start(Map.of("junction.mock.error-rate", 1.0, "junction.mock.error-status", 400));
		try (ServerSocket socket = new ServerSocket(0)) {
			flakyPort = socket.getLocalPort();
		}
		gateway = GatewayFixture
			.with("junction.gateway.cache.enabled=false",
					"junction.gateway.models.resilient.targets[0]=down/gpt-4o-mini",
					"junction.gateway.models.resilient.targets[1]=up/gpt-4o-mini",
					"junction.gateway.models.strict.targets[0]=refusing/gpt-4o-mini",
					"junction.gateway.models.strict.targets[1]=up/gpt-4o-mini",
					"resilience4j.retry.configs.default.wait-duration=10ms",
					"resilience4j.circuitbreaker.configs.flaky.sliding-window-size=4",
					"resilience4j.circuitbreaker.configs.flaky.minimum-number-of-calls=4",
					"resilience4j.circuitbreaker.configs.flaky.wait-duration-in-open-state=3s",
					"resilience4j.circuitbreaker.configs.flaky.permitted-number-of-calls-in-half-open-state=1",
					"resilience4j.retry.configs.flaky.max-attempts=1",
					"junction.gateway.providers.queued.concurrency=1", "junction.gateway.providers.queued.queue-size=0")
			.openAi("up", healthy, "sk-a")
			.openAi("down", failing, "sk-a")
			.openAi("flaky", "http://127.0.0.1:" + flakyPort + "/v1", "sk-a")
			.openAi("queued", slow, "sk-a")
			.openAi("refusing", refusing, "sk-a")
			.openAi("rotating", keyed, "sk-revoked")
			.properties("junction.gateway.providers.rotating.keys[1].value=sk-good")
			.start();
	}

	@AfterAll
	static void stop() {
		gateway.close();
	}

	@Test
	void fallbackChainServesEveryRequestWhileTheFirstProviderFailsEveryTime() {
		long failedBefore = failing.stats().route(Route.CHAT_COMPLETIONS).requests();
		for (int i = 0; i < 20; i++) {
			HttpResponse<String> response = chat("resilient", false);
			assertThat(response.statusCode()).as("request %d", i).isEqualTo(200);
		}
		assertThat(failing.stats().route(Route.CHAT_COMPLETIONS).requests()).isGreaterThan(failedBefore);
		assertThat(Http.get(gateway.baseUrl() + "/actuator/prometheus").body())
			.containsPattern("junction_gateway_fallbacks_requests_total\\{[^}]*provider=\"down\"[^}]*} [1-9]");
	}

	@Test
	void fallbackChainServesStreamsToo() {
		HttpResponse<String> response = chat("resilient", true);
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.body()).endsWith("data: [DONE]\n\n");
	}

	@Test
	void requestCanNameItsOwnFallbackOrder() {
		HttpResponse<String> response = Http.post(gateway.baseUrl() + "/v1/chat/completions", null,
				"{\"model\":\"down/gpt-4o-mini\",\"models\":[\"down/gpt-4o-mini\",\"up/gpt-4o-mini\"],"
						+ "\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");
		assertThat(response.statusCode()).isEqualTo(200);
	}

	@Test
	void doesNotFallBackOnAClientErrorNorRetryIt() {
		long refused = refusing.stats().route(Route.CHAT_COMPLETIONS).requests();
		long served = healthy.stats().route(Route.CHAT_COMPLETIONS).requests();
		HttpResponse<String> response = chat("strict", false);
		assertThat(response.statusCode()).as(response.body()).isEqualTo(400);
		assertThat(response.body()).contains("mock-provider injected a 400 error.");
		assertThat(refusing.stats().route(Route.CHAT_COMPLETIONS).requests()).as("tried once, not retried")
			.isEqualTo(refused + 1);
		assertThat(healthy.stats().route(Route.CHAT_COMPLETIONS).requests()).as("the next target is not asked")
			.isEqualTo(served);
	}

	@Test
	void circuitBreakerOpensOnFailuresAndClosesOnceTheProviderRecovers() throws Exception {
		for (int i = 0; i < 4; i++) {
			assertThat(chat("flaky/gpt-4o-mini", false).statusCode()).isEqualTo(502);
		}
		HttpResponse<String> open = chat("flaky/gpt-4o-mini", false);
		assertThat(open.statusCode()).isEqualTo(503);
		assertThat(open.body()).contains("\"code\":\"circuit_breaker\"");
		assertThat(open.headers().firstValue("retry-after")).isPresent();

		try (MockProviderServer recovered = MockProviderServer.start(MockProperties.defaults(), "127.0.0.1",
				flakyPort)) {
			long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
			int status = 0;
			while (System.nanoTime() < deadline && status != 200) {
				Thread.sleep(200);
				status = chat("flaky/gpt-4o-mini", false).statusCode();
			}
			assertThat(status).as("served again after the open interval").isEqualTo(200);
			assertThat(chat("flaky/gpt-4o-mini", false).statusCode()).isEqualTo(200);
			assertThat(recovered.stats().route(Route.CHAT_COMPLETIONS).requests()).isGreaterThanOrEqualTo(2);
		}
	}

	@Test
	void takesARefusedKeyOutOfRotationAndServesTheCallWithAnotherKey() {
		int failures = 0;
		for (int i = 0; i < 30; i++) {
			if (chat("rotating/gpt-4o-mini", false).statusCode() != 200) {
				failures++;
			}
		}
		assertThat(failures).as("the call that found the key revoked is sent again with another key").isZero();
		assertThat(keyed.stats().requestsWithKeySuffix("oked")).isLessThanOrEqualTo(1);
		assertThat(keyed.stats().requestsWithKeySuffix("good")).isGreaterThanOrEqualTo(29);
	}

	@Test
	void failsFastWith503WhenTheProviderQueueIsFull() throws InterruptedException {
		CompletableFuture<HttpResponse<String>> first = CompletableFuture
			.supplyAsync(() -> chat("queued/gpt-4o-mini", false));
		long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
		while (slow.stats().route(Route.CHAT_COMPLETIONS).requests() == 0 && System.nanoTime() < deadline) {
			Thread.sleep(10);
		}
		assertThat(slow.stats().route(Route.CHAT_COMPLETIONS).requests()).as("the first call reached the provider")
			.isEqualTo(1);
		HttpResponse<String> second = chat("queued/gpt-4o-mini", false);
		assertThat(second.statusCode()).isEqualTo(503);
		assertThat(second.body()).contains("\"code\":\"provider_queue\"");
		assertThat(second.headers().firstValue("retry-after")).isPresent();
		assertThat(Http.get(gateway.baseUrl() + "/actuator/prometheus").body())
			.contains("junction_provider_in_flight{application=\"gateway-app\",provider=\"queued\"} 1.0")
			.contains("junction_provider_queue_waiting{application=\"gateway-app\",provider=\"queued\"} 0.0");
		assertThat(first.join().statusCode()).isEqualTo(200);
		assertThat(Http.get(gateway.baseUrl() + "/actuator/prometheus").body())
			.contains("junction_provider_queue_wait_seconds_count{");
	}

	private static HttpResponse<String> chat(String model, boolean stream) {
		return Http.post(gateway.baseUrl() + "/v1/chat/completions", null, "{\"model\":\"" + model + "\",\"stream\":"
				+ stream + ",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");
	}

}
