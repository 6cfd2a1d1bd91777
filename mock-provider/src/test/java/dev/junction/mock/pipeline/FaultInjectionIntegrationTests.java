package dev.junction.mock.pipeline;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import dev.junction.mock.MockProviderServer;
import dev.junction.mock.stats.Route;
import dev.junction.mock.stats.RouteStats;
import dev.junction.mock.support.Requests;
import dev.junction.mock.support.TestHttp;
import dev.junction.mock.support.TestHttp.Response;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.netty.ByteBufFlux;
import reactor.netty.http.client.HttpClient;
import reactor.netty.http.client.PrematureCloseException;
import reactor.test.StepVerifier;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

class FaultInjectionIntegrationTests {

	private static final String CHAT = "/v1/chat/completions";

	private static final String MESSAGES = "/v1/messages";

	private static MockProviderServer server;

	private static TestHttp http;

	@BeforeAll
	static void start() {
		server = MockProviderServer.start(Map.of("junction.mock.retry-after-seconds", 7));
		http = TestHttp.of(server);
	}

	@AfterAll
	static void stop() {
		server.close();
	}

	@BeforeEach
	void resetStats() {
		server.resetStats();
	}

	@Test
	void delaysTheAnswerByTheLatencyHeader() {
		long start = System.nanoTime();
		Response response = http.post(CHAT, Requests.openAi("hi", ""), Map.of("x-mock-latency-ms", "300"));

		assertThat(response.status()).isEqualTo(200);
		assertThat(elapsedMillis(start)).isGreaterThanOrEqualTo(300);
	}

	@Test
	void delaysEveryAnswerByTheConfiguredLatency() {
		try (MockProviderServer slow = MockProviderServer
			.start(Map.of("junction.mock.latency-ms", 250, "junction.mock.jitter-ms", 50))) {
			long start = System.nanoTime();
			Response response = TestHttp.of(slow).post(MESSAGES, Requests.anthropic("hi", ""));

			assertThat(response.status()).isEqualTo(200);
			assertThat(elapsedMillis(start)).isGreaterThanOrEqualTo(250);
		}
	}

	@Test
	void delaysStreamEventsByTheChunkDelay() {
		long start = System.nanoTime();
		Response response = http.post(CHAT, Requests.openAi("hi", "\"stream\":true"),
				Map.of("x-mock-chunk-delay-ms", "40", "x-mock-stream-chunks", "4"));

		assertThat(response.events()).hasSize(7);
		assertThat(elapsedMillis(start)).isGreaterThanOrEqualTo(6 * 40);
	}

	@Test
	void answersTheStatusHeaderInOpenAiShapeWithRetryAfter() {
		Response response = http.post(CHAT, Requests.openAi("hi", ""), Map.of("x-mock-status", "429"));

		assertThat(response.status()).isEqualTo(429);
		assertThat(response.headers().get("retry-after")).isEqualTo("7");
		JsonNode error = response.json().path("error");
		assertThat(error.path("message").stringValue()).isNotEmpty();
		assertThat(error.path("type").stringValue()).isEqualTo("requests");
		assertThat(error.path("code").stringValue()).isEqualTo("rate_limit_exceeded");
		assertThat(error.has("param")).isTrue();
		assertThat(server.stats().route(Route.CHAT_COMPLETIONS).errors()).isEqualTo(1);
	}

	@Test
	void answersTheStatusHeaderInAnthropicShape() {
		Response response = http.post(MESSAGES, Requests.anthropic("hi", ""),
				Map.of("x-mock-status", "529", "x-mock-retry-after", "3"));

		assertThat(response.status()).isEqualTo(529);
		assertThat(response.headers().get("retry-after")).isEqualTo("3");
		JsonNode json = response.json();
		assertThat(json.path("type").stringValue()).isEqualTo("error");
		assertThat(json.path("error").path("type").stringValue()).isEqualTo("overloaded_error");
		assertThat(json.path("error").path("message").stringValue()).isNotEmpty();
	}

	@Test
	void sendsNoRetryAfterOnAServerError() {
		Response response = http.post(CHAT, Requests.openAi("hi", ""), Map.of("x-mock-status", "500"));

		assertThat(response.status()).isEqualTo(500);
		assertThat(response.headers().get("retry-after")).isNull();
		assertThat(response.json().path("error").path("type").stringValue()).isEqualTo("server_error");
	}

	@Test
	void failsEveryRequestWhenTheErrorRateIsOne() {
		try (MockProviderServer failing = MockProviderServer.start(Map.of("junction.mock.error-rate", 1.0,
				"junction.mock.error-status", 503, "junction.mock.retry-after-seconds", 2))) {
			TestHttp client = TestHttp.of(failing);
			for (int i = 0; i < 5; i++) {
				Response response = client.post(CHAT, Requests.openAi("hi", ""));
				assertThat(response.status()).isEqualTo(503);
				assertThat(response.headers().get("retry-after")).isEqualTo("2");
				assertThat(response.json().path("error").path("type").stringValue()).isEqualTo("server_error");
			}
			assertThat(failing.stats().route(Route.CHAT_COMPLETIONS).errors()).isEqualTo(5);
		}
	}

	@Test
	void neverFailsWhenTheErrorRateIsZero() {
		for (int i = 0; i < 5; i++) {
			assertThat(http.post(CHAT, Requests.openAi("hi", "")).status()).isEqualTo(200);
		}
	}

	@Test
	void cutsAnOpenAiStreamWithoutDoneAfterTheTruncateHeader() {
		List<String> received = receivedBeforeClose(http, CHAT, Requests.openAi("hello", "\"stream\":true"),
				Map.of("x-mock-truncate-after", "2"));

		List<TestHttp.SseEvent> events = TestHttp.events(String.join("", received));
		assertThat(events).hasSize(2);
		assertThat(events.get(0).json().path("choices").get(0).path("delta").path("role").stringValue())
			.isEqualTo("assistant");
		assertThat(events).noneSatisfy((event) -> assertThat(event.data()).isEqualTo("[DONE]"));
		await().atMost(10, TimeUnit.SECONDS).until(() -> server.stats().route(Route.CHAT_COMPLETIONS).truncated() == 1);
		assertThat(server.stats().route(Route.CHAT_COMPLETIONS).ok()).isZero();
		assertThat(server.stats().route(Route.CHAT_COMPLETIONS).cancelled()).isZero();
	}

	@Test
	void cutsEveryStreamAfterTheConfiguredEvents() {
		try (MockProviderServer cutting = MockProviderServer.start(Map.of("junction.mock.truncate-stream-after", 4))) {
			TestHttp client = TestHttp.of(cutting);
			List<String> received = receivedBeforeClose(client, MESSAGES, Requests.anthropic("hi", "\"stream\":true"),
					Map.of());

			assertThat(TestHttp.events(String.join("", received))).extracting(TestHttp.SseEvent::name)
				.containsExactly("message_start", "content_block_start", "ping", "content_block_delta");
			assertThat(client.post(CHAT, Requests.openAi("hi", "")).status()).as("a JSON answer is not cut")
				.isEqualTo(200);
		}
	}

	@Test
	void resetsTheConnectionOnTheResetHeader() {
		assertThatThrownBy(() -> http.post(CHAT, Requests.openAi("hi", ""), Map.of("x-mock-reset", "true")))
			.hasMessageContaining("Connection");
		assertThat(server.stats().route(Route.CHAT_COMPLETIONS).resets()).isEqualTo(1);
	}

	@Test
	void countsAStalledRequestAsCancelledWhenTheClientGivesUp() {
		long start = System.nanoTime();
		Mono<Integer> stalled = HttpClient.create()
			.baseUrl(server.baseUrl())
			.responseTimeout(Duration.ofMillis(300))
			.headers((headers) -> headers.set("x-mock-stall", "true"))
			.post()
			.uri(CHAT)
			.send(ByteBufFlux.fromString(Mono.just(Requests.openAi("hi", ""))))
			.response()
			.map((response) -> response.status().code());

		StepVerifier.create(stalled).expectError().verify(Duration.ofSeconds(20));
		assertThat(elapsedMillis(start)).isGreaterThanOrEqualTo(300);
		await().atMost(10, TimeUnit.SECONDS).until(() -> server.stats().route(Route.CHAT_COMPLETIONS).cancelled() == 1);
	}

	@Test
	void countsAStreamCancelledByTheClient() {
		Flux<String> slowStream = http.stream(CHAT, Requests.openAi("hi", "\"stream\":true"),
				Map.of("x-mock-chunk-delay-ms", "200", "x-mock-stream-chunks", "20"));

		StepVerifier.create(slowStream.take(2)).expectNextCount(2).verifyComplete();
		await().atMost(10, TimeUnit.SECONDS).until(() -> server.stats().route(Route.CHAT_COMPLETIONS).cancelled() == 1);
		RouteStats stats = server.stats().route(Route.CHAT_COMPLETIONS);
		assertThat(stats.streams()).isEqualTo(1);
		assertThat(stats.ok()).isZero();
		// The stream is counted as ended once its cancellation has gone through, a moment
		// after it is counted as cancelled.
		await().atMost(10, TimeUnit.SECONDS).untilAsserted(() -> assertThat(server.stats().activeStreams()).isZero());
	}

	@Test
	void countsARequestCancelledDuringItsLatency() {
		Mono<Integer> slow = HttpClient.create()
			.baseUrl(server.baseUrl())
			.responseTimeout(Duration.ofMillis(200))
			.headers((headers) -> headers.set("x-mock-latency-ms", "5000"))
			.post()
			.uri(CHAT)
			.send(ByteBufFlux.fromString(Mono.just(Requests.openAi("hi", ""))))
			.response()
			.map((response) -> response.status().code());

		StepVerifier.create(slow).expectError().verify(Duration.ofSeconds(20));
		await().atMost(10, TimeUnit.SECONDS).until(() -> server.stats().route(Route.CHAT_COMPLETIONS).cancelled() == 1);
	}

	@Test
	void rejectsAnInvalidMockHeaderNamingIt() {
		Response response = http.post(CHAT, Requests.openAi("hi", ""), Map.of("x-mock-latency-ms", "soon"));

		assertThat(response.status()).isEqualTo(400);
		assertThat(response.json().path("error").path("message").stringValue()).contains("x-mock-latency-ms");
	}

	@Test
	void rejectsABodyOverTheConfiguredSize() {
		try (MockProviderServer small = MockProviderServer.start(Map.of("junction.mock.http.max-body-size", "1KB"))) {
			Response response = TestHttp.of(small).post(CHAT, Requests.openAi("x".repeat(2048), ""));

			assertThat(response.status()).isEqualTo(413);
			assertThat(response.json().path("error").path("code").stringValue()).isEqualTo("request_too_large");
		}
	}

	/**
	 * The chunks of a body received before the connection closed; fails if the body ends
	 * normally.
	 */
	private static List<String> receivedBeforeClose(TestHttp client, String path, String body,
			Map<String, String> headers) {
		List<String> received = new CopyOnWriteArrayList<>();
		StepVerifier.create(client.stream(path, body, headers).doOnNext(received::add))
			.thenConsumeWhile((chunk) -> true)
			.expectError(PrematureCloseException.class)
			.verify(Duration.ofSeconds(20));
		return received;
	}

	private static long elapsedMillis(long startNanos) {
		return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
	}

}
