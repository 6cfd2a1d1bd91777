package dev.junction.gateway.admission;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import dev.junction.gateway.support.Http;
import dev.junction.gateway.support.RunningGateway;
import dev.junction.mock.MockProviderServer;
import dev.junction.mock.stats.Route;
import io.netty.util.concurrent.EventExecutor;
import org.junit.jupiter.api.Test;
import reactor.netty.resources.LoopResources;

import org.springframework.http.client.ReactorResourceFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class AdmissionIntegrationTests {

	private static final String CHAT = "{\"model\":\"slow/gpt-4o-mini\",\"max_tokens\":5,"
			+ "\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";

	private static final String MESSAGES = "{\"model\":\"slow/claude-x\",\"max_tokens\":5,"
			+ "\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";

	@Test
	void queuesWhatArrivesBeyondMaxInFlightAndShedsWhatTheQueueCannotHoldInEachApisShape() throws Exception {
		try (MockProviderServer slow = MockProviderServer.start(Map.of("junction.mock.latency-ms", 1500));
				RunningGateway gateway = inFrontOf(slow, "junction.gateway.admission.max-in-flight=2",
						"junction.gateway.admission.queue-size=1", "junction.gateway.admission.max-queue-wait=10s")) {
			String url = gateway.baseUrl() + "/v1/chat/completions";
			AdmissionFilter admission = gateway.context().getBean(AdmissionFilter.class);
			CompletableFuture<HttpResponse<String>> first = CompletableFuture
				.supplyAsync(() -> Http.post(url, null, CHAT));
			CompletableFuture<HttpResponse<String>> second = CompletableFuture
				.supplyAsync(() -> Http.post(url, null, CHAT));
			await().atMost(Duration.ofSeconds(10))
				.until(() -> slow.stats().route(Route.CHAT_COMPLETIONS).requests() == 2);
			CompletableFuture<HttpResponse<String>> queued = CompletableFuture
				.supplyAsync(() -> Http.post(url, null, CHAT));
			await().atMost(Duration.ofSeconds(10)).until(() -> admission.waiting() == 1);

			HttpResponse<String> shed = Http.post(url, null, CHAT);
			assertThat(shed.statusCode()).isEqualTo(503);
			assertThat(shed.headers().firstValue("retry-after")).hasValue("1");
			assertThat(shed.body()).contains("\"type\":\"server_overloaded\"")
				.contains("\"code\":\"gateway_overloaded\"")
				.contains("limit of 2 requests at once")
				.doesNotContain("slow");
			HttpResponse<String> anthropic = Http.post(gateway.baseUrl() + "/v1/messages", null, MESSAGES);
			assertThat(anthropic.statusCode()).isEqualTo(503);
			assertThat(anthropic.body()).contains("\"type\":\"error\"").contains("\"type\":\"overloaded_error\"");
			HttpResponse<String> rpc = Http.post(gateway.baseUrl() + "/rpc", null,
					"{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"calculator.add\",\"params\":{\"a\":1,\"b\":2}}");
			// Shed before its body is read, so with the null id JSON-RPC has for that.
			assertThat(rpc.body()).contains("\"jsonrpc\":\"2.0\"")
				.contains("\"id\":null")
				.contains("\"code\":-32000")
				.contains("\"code\":\"gateway_overloaded\"");
			assertThat(Http.get(gateway.baseUrl() + "/actuator/health").statusCode()).as("actuator is never shed")
				.isEqualTo(200);
			assertThat(slow.stats().route(Route.CHAT_COMPLETIONS).requests())
				.as("nothing waiting or shed reached the provider")
				.isEqualTo(2);

			assertThat(first.get(10, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
			assertThat(second.get(10, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
			assertThat(queued.get(10, TimeUnit.SECONDS).statusCode()).as("the queued request is served once one ends")
				.isEqualTo(200);
			await().atMost(Duration.ofSeconds(5)).until(() -> admission.inFlight() == 0);
			assertThat(Http.post(url, null, CHAT).statusCode()).isEqualTo(200);
			assertThat(Http.get(gateway.baseUrl() + "/actuator/prometheus").body())
				.containsPattern("junction_gateway_admission_shed_total\\{[^}]*reason=\"in_flight\"} 3.0")
				.as("the wait is recorded only for the one request that waited")
				.containsPattern("junction_gateway_admission_wait_seconds_count\\{[^}]*} 1\n");
		}
	}

	@Test
	void shedsWhatItRefusesAtOnceInFrontOfTheApplication() throws Exception {
		try (MockProviderServer slow = MockProviderServer.start(Map.of("junction.mock.latency-ms", 1500));
				RunningGateway gateway = inFrontOf(slow, "junction.gateway.admission.max-in-flight=1",
						"junction.gateway.cors.allowed-origins=https://app.example")) {
			String url = gateway.baseUrl() + "/v1/chat/completions";
			CompletableFuture<HttpResponse<String>> first = CompletableFuture
				.supplyAsync(() -> Http.post(url, null, CHAT));
			await().atMost(Duration.ofSeconds(10))
				.until(() -> slow.stats().route(Route.CHAT_COMPLETIONS).requests() == 1);

			HttpResponse<String> shed = Http.post(url, null, CHAT);
			assertThat(shed.statusCode()).isEqualTo(503);
			assertThat(shed.headers().firstValue("retry-after")).hasValue("1");
			assertThat(shed.headers().firstValue("x-request-id")).isPresent();
			assertThat(shed.headers().firstValue("server-timing")).isPresent();
			assertThat(shed.body()).contains("\"type\":\"server_overloaded\"")
				.contains("\"code\":\"gateway_overloaded\"")
				.contains("limit of 1 requests at once");
			HttpResponse<String> anthropic = Http.post(gateway.baseUrl() + "/v1/messages", null, MESSAGES);
			assertThat(anthropic.statusCode()).isEqualTo(503);
			assertThat(anthropic.body()).contains("\"type\":\"overloaded_error\"")
				.contains("\"request_id\":\"" + anthropic.headers().firstValue("x-request-id").orElseThrow() + "\"");
			HttpResponse<String> browser = Http.postWithHeaders(url, Map.of("Origin", "https://app.example"), CHAT);
			assertThat(browser.statusCode()).isEqualTo(503);
			assertThat(browser.headers().firstValue("access-control-allow-origin"))
				.as("a browser's request is shed with its CORS headers")
				.hasValue("https://app.example");
			assertThat(first.get(10, TimeUnit.SECONDS).statusCode()).isEqualTo(200);

			String metrics = Http.get(gateway.baseUrl() + "/actuator/prometheus").body();
			assertThat(metrics)
				.containsPattern("junction_gateway_admission_shed_total\\{[^}]*reason=\"in_flight\"} 3.0")
				.as("shed before the application: not observed as a request, but the browser's")
				.containsPattern("http_server_requests_seconds_count\\{[^}]*status=\"503\",uri=\"UNKNOWN\"} 1\n");
			assertThat(slow.stats().route(Route.CHAT_COMPLETIONS).requests()).isEqualTo(1);
		}
	}

	@Test
	void shedsARequestThatWaitedItsLongest() throws Exception {
		try (MockProviderServer slow = MockProviderServer.start(Map.of("junction.mock.latency-ms", 3000));
				RunningGateway gateway = inFrontOf(slow, "junction.gateway.admission.max-in-flight=1",
						"junction.gateway.admission.queue-size=1", "junction.gateway.admission.max-queue-wait=300ms")) {
			String url = gateway.baseUrl() + "/v1/chat/completions";
			CompletableFuture<HttpResponse<String>> first = CompletableFuture
				.supplyAsync(() -> Http.post(url, null, CHAT));
			await().atMost(Duration.ofSeconds(10))
				.until(() -> slow.stats().route(Route.CHAT_COMPLETIONS).requests() == 1);
			long start = System.nanoTime();
			HttpResponse<String> shed = Http.post(url, null, CHAT);
			assertThat(Duration.ofNanos(System.nanoTime() - start)).isBetween(Duration.ofMillis(250),
					Duration.ofMillis(2500));
			assertThat(shed.statusCode()).isEqualTo(503);
			assertThat(shed.body()).contains("\"code\":\"gateway_overloaded\"").contains("none ended within 300 ms");
			assertThat(gateway.context().getBean(AdmissionFilter.class).waiting()).isZero();
			assertThat(first.get(10, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
		}
	}

	@Test
	void shedsABodyThatWouldTakeTheBodiesInProgressPastTheirBudget() throws Exception {
		try (MockProviderServer slow = MockProviderServer.start(Map.of("junction.mock.latency-ms", 1500));
				RunningGateway gateway = inFrontOf(slow, "junction.gateway.admission.max-body-bytes-in-flight=10KB",
						"junction.gateway.http.max-body-size=16KB")) {
			String url = gateway.baseUrl() + "/v1/chat/completions";
			String large = "{\"model\":\"slow/gpt-4o-mini\",\"max_tokens\":5,\"messages\":[{\"role\":\"user\",\"content\":\""
					+ "x".repeat(8 * 1024) + "\"}]}";
			String larger = large.replace("\"x", "\"" + "y".repeat(4 * 1024) + "x");
			AdmissionFilter admission = gateway.context().getBean(AdmissionFilter.class);

			// Alone, even a body over the budget is served.
			assertThat(Http.post(url, null, larger).statusCode()).isEqualTo(200);
			await().atMost(Duration.ofSeconds(5)).until(() -> admission.bodyBytes() == 0);

			CompletableFuture<HttpResponse<String>> first = CompletableFuture
				.supplyAsync(() -> Http.post(url, null, large));
			await().atMost(Duration.ofSeconds(10))
				.until(() -> slow.stats().route(Route.CHAT_COMPLETIONS).requests() == 2);
			assertThat(admission.bodyBytes()).isEqualTo(large.length());

			HttpResponse<String> shed = Http.post(url, null, large);
			assertThat(shed.statusCode()).isEqualTo(503);
			assertThat(shed.headers().firstValue("retry-after")).hasValue("1");
			assertThat(shed.body()).contains("\"code\":\"gateway_overloaded\"").contains("10 KB of request bodies");
			assertThat(Http.post(url, null, CHAT).statusCode()).as("a small body still fits").isEqualTo(200);
			HttpResponse<String> tooLarge = Http.post(url, null,
					large.replace("\"x", "\"" + "z".repeat(12 * 1024) + "x"));
			assertThat(tooLarge.statusCode()).as("a body over the size limit is the client's error, not overload")
				.isEqualTo(413);

			assertThat(first.get(10, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
			await().atMost(Duration.ofSeconds(5)).until(() -> admission.bodyBytes() == 0);
			assertThat(Http.post(url, null, large).statusCode()).isEqualTo(200);
			assertThat(Http.get(gateway.baseUrl() + "/actuator/prometheus").body())
				.containsPattern("junction_gateway_admission_shed_total\\{[^}]*reason=\"body_bytes\"} 1.0");
		}
	}

	@Test
	void shedsWhileTheEventLoopRunsLateAndServesAgainOnceItCatchesUp() throws Exception {
		try (RunningGateway gateway = RunningGateway
			.start(List.of("junction.gateway.admission.max-event-loop-delay=100ms",
					"junction.gateway.admission.probe-interval=5ms"))) {
			String url = gateway.baseUrl() + "/v1/chat/completions";
			String body = "{\"model\":\"mock/echo-1\",\"max_tokens\":5,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";
			assertThat(Http.post(url, null, body).statusCode()).isEqualTo(200);

			// A single stall leaves no lasting mark.
			busy(gateway, Duration.ofMillis(400), Duration.ofMillis(400));
			Thread.sleep(600);
			assertThat(Http.post(url, null, body).statusCode()).isEqualTo(200);

			// Every server loop given 150 ms of work every millisecond for 1.5 s: late at
			// every run of its probe, so a request read meanwhile is shed.
			busy(gateway, Duration.ofMillis(150), Duration.ofMillis(1500));
			Thread.sleep(700);
			HttpResponse<String> shed = Http.post(url, null, body);
			assertThat(shed.statusCode()).isEqualTo(503);
			assertThat(shed.body()).contains("\"code\":\"gateway_overloaded\"").contains("over capacity");
			assertThat(shed.headers().firstValue("retry-after")).hasValue("1");

			await().atMost(Duration.ofSeconds(5)).until(() -> Http.post(url, null, body).statusCode() == 200);
			assertThat(Http.get(gateway.baseUrl() + "/actuator/prometheus").body())
				.containsPattern("junction_gateway_admission_shed_total\\{[^}]*reason=\"event_loop_delay\"} [1-9]")
				.contains("junction_gateway_event_loop_delay_seconds");
		}
	}

	@Test
	void bringsTheBoundDownWhileTheEventLoopRunsLateAndBackOnceItCatchesUp() throws Exception {
		try (MockProviderServer slow = MockProviderServer.start(Map.of("junction.mock.latency-ms", 5000));
				RunningGateway gateway = inFrontOf(slow, "junction.gateway.admission.max-in-flight=8",
						"junction.gateway.admission.min-in-flight=2",
						"junction.gateway.admission.probe-interval=5ms")) {
			String url = gateway.baseUrl() + "/v1/chat/completions";
			AdmissionFilter admission = gateway.context().getBean(AdmissionFilter.class);
			List<CompletableFuture<HttpResponse<String>>> waiting = new ArrayList<>();
			for (int i = 0; i < 5; i++) {
				waiting.add(CompletableFuture.supplyAsync(() -> Http.post(url, null, CHAT)));
			}
			await().atMost(Duration.ofSeconds(10))
				.until(() -> slow.stats().route(Route.CHAT_COMPLETIONS).requests() == 5);
			// Five requests waiting for their upstream cost the loops nothing: the bound
			// stays where it was set.
			Thread.sleep(300);
			assertThat(admission.bound()).isEqualTo(8);

			busy(gateway, Duration.ofMillis(150), Duration.ofMillis(1500));
			await().atMost(Duration.ofSeconds(2)).until(() -> admission.bound() == 4);
			HttpResponse<String> shed = Http.post(url, null, CHAT);
			assertThat(shed.statusCode()).isEqualTo(503);
			assertThat(shed.body()).contains("\"code\":\"gateway_overloaded\"").contains("limit of 4 requests at once");

			await().atMost(Duration.ofSeconds(5)).until(() -> admission.bound() == 8);
			assertThat(Http.get(gateway.baseUrl() + "/actuator/prometheus").body())
				.containsPattern("junction_gateway_admission_limit\\{[^}]*} 8.0");
			for (CompletableFuture<HttpResponse<String>> each : waiting) {
				assertThat(each.get(20, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
			}
			assertThat(slow.stats().route(Route.CHAT_COMPLETIONS).requests()).isEqualTo(5);
		}
	}

	private static void busy(RunningGateway gateway, Duration chunk, Duration total) {
		ReactorResourceFactory resources = gateway.context().getBean(ReactorResourceFactory.class);
		long until = System.nanoTime() + total.toNanos();
		for (EventExecutor loop : resources.getLoopResources().onServer(LoopResources.DEFAULT_NATIVE)) {
			loop.execute(new Runnable() {
				@Override
				public void run() {
					long end = System.nanoTime() + chunk.toNanos();
					while (System.nanoTime() < end) {
						// Busy, not blocked: BlockHound refuses sleeping on an event
						// loop.
					}
					if (System.nanoTime() < until) {
						loop.schedule(this, 1, TimeUnit.MILLISECONDS);
					}
				}
			});
		}
	}

	/**
	 * A gateway with {@code properties} in front of {@code slow} as provider
	 * {@code slow}.
	 */
	private static RunningGateway inFrontOf(MockProviderServer slow, String... properties) {
		List<String> all = new ArrayList<>(List.of(properties));
		all.addAll(List.of("junction.gateway.cache.enabled=false", "junction.gateway.providers.slow.type=openai",
				"junction.gateway.providers.slow.base-url=" + slow.openAiBaseUrl(),
				"junction.gateway.providers.slow.keys[0].value=sk-slow"));
		return RunningGateway.start(all);
	}

}
