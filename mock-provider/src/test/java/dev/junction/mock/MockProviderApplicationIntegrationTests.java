package dev.junction.mock;

import java.util.List;
import java.util.Map;

import dev.junction.mock.support.RawHttp;
import dev.junction.mock.support.Requests;
import dev.junction.mock.support.TestHttp;
import dev.junction.mock.support.TestHttp.Response;
import dev.junction.netty.AcceptBursts;
import io.netty.channel.Channel;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import reactor.netty.http.client.PrematureCloseException;
import reactor.test.StepVerifier;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.reactor.netty.NettyServerCustomizer;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The standalone Spring Boot application: same routes, plus properties from its
 * environment and Actuator.
 */
@ExtendWith(OutputCaptureExtension.class)
class MockProviderApplicationIntegrationTests {

	private static ConfigurableApplicationContext context;

	private static TestHttp http;

	@BeforeAll
	static void start() {
		SpringApplication application = MockProviderApplication.application();
		application.addPrimarySources(List.of(ListeningChannel.class));
		context = application.run("--server.port=0", "--junction.mock.completion-tokens=4",
				"--junction.mock.api-keys=sk-app-one1,sk-app-two2", "--junction.mock.http.read-timeout=1s");
		int port = ((WebServerApplicationContext) context).getWebServer().getPort();
		http = TestHttp.of("http://127.0.0.1:" + port);
	}

	@AfterAll
	static void stop() {
		context.close();
	}

	private static int port() {
		return ((WebServerApplicationContext) context).getWebServer().getPort();
	}

	@Test
	void answersWithPropertiesFromTheEnvironment() {
		Response response = http.post("/v1/chat/completions", Requests.openAi("hello", ""),
				Map.of("Authorization", "Bearer sk-app-two2"));

		assertThat(response.status()).isEqualTo(200);
		assertThat(response.headers().get("x-mock-key-suffix")).isEqualTo("two2");
		assertThat(response.json().path("choices").get(0).path("message").path("content").stringValue())
			.isEqualTo("Received 1 word: hello");
		assertThat(http
			.post("/v1/chat/completions", Requests.openAi("hello", ""), Map.of("Authorization", "Bearer sk-nope"))
			.status()).isEqualTo(401);
	}

	@Test
	void streamsAnthropicEvents() {
		Response response = http.post("/v1/messages", Requests.anthropic("hello", "\"stream\":true"),
				Map.of("x-api-key", "sk-app-one1"));

		assertThat(response.events()).extracting(TestHttp.SseEvent::name)
			.containsExactly("message_start", "content_block_start", "ping", "content_block_delta",
					"content_block_delta", "content_block_delta", "content_block_delta", "content_block_stop",
					"message_delta", "message_stop");
	}

	@Test
	void cutsAStreamUnderWebFluxToo() {
		StepVerifier
			.create(http.stream("/v1/chat/completions", Requests.openAi("hello", "\"stream\":true"),
					Map.of("Authorization", "Bearer sk-app-one1", "x-mock-truncate-after", "1")))
			.expectNextMatches((chunk) -> chunk.startsWith("data: {"))
			.expectError(PrematureCloseException.class)
			.verify(java.time.Duration.ofSeconds(20));
	}

	@Test
	void exposesCountersInStatsAndPrometheus() {
		http.delete("/mock/stats");
		http.post("/v1/chat/completions", Requests.openAi("hello", ""), Map.of("Authorization", "Bearer sk-app-one1"));
		http.post("/v1/chat/completions", Requests.openAi("hello", ""),
				Map.of("Authorization", "Bearer sk-app-one1", "x-mock-status", "503"));

		Response stats = http.get("/mock/stats", Map.of());
		assertThat(stats.json().path("routes").path("chat_completions").path("requests").intValue()).isEqualTo(2);
		assertThat(stats.json().path("routes").path("chat_completions").path("ok").intValue()).isEqualTo(1);
		assertThat(stats.json().path("routes").path("chat_completions").path("errors").intValue()).isEqualTo(1);
		assertThat(stats.json().path("keys").path("one1").intValue()).isEqualTo(2);

		Response prometheus = http.get("/actuator/prometheus", Map.of());
		assertThat(prometheus.status()).isEqualTo(200);
		assertThat(prometheus.body())
			.contains("junction_mock_requests_total{application=\"mock-provider\",route=\"chat_completions\"}")
			.contains("junction_mock_responses_total{application=\"mock-provider\",outcome=\"error\","
					+ "route=\"chat_completions\"}")
			.contains("junction_mock_active_streams{application=\"mock-provider\"}");
		assertThat(http.get("/actuator/health", Map.of()).body()).contains("UP");
	}

	@Test
	void echoesTheRequestIdOnAnswersAndErrors() {
		Response ok = http.post("/v1/chat/completions", Requests.openAi("hello", ""),
				Map.of("Authorization", "Bearer sk-app-one1", "X-Request-Id", "mock-req-1"));
		assertThat(ok.status()).isEqualTo(200);
		assertThat(ok.headers().get("X-Request-Id")).isEqualTo("mock-req-1");
		Response failed = http.post("/v1/messages", Requests.anthropic("hello", ""),
				Map.of("x-api-key", "sk-app-one1", "X-Request-Id", "mock-req-2", "x-mock-status", "529"));
		assertThat(failed.status()).isEqualTo(529);
		assertThat(failed.headers().get("X-Request-Id")).isEqualTo("mock-req-2");
		Response without = http.post("/v1/chat/completions", Requests.openAi("hello", ""),
				Map.of("Authorization", "Bearer sk-app-one1"));
		assertThat(without.headers().contains("X-Request-Id")).isFalse();
	}

	@Test
	void answersABodyThatStopsArrivingWith408AndClosesTheConnection(CapturedOutput output) throws Exception {
		String answer = RawHttp.unfinishedPost(port(), "/v1/chat/completions", "Authorization: Bearer sk-app-one1\r\n",
				"{\"model\"", 100, 10);

		assertThat(answer).startsWith("HTTP/1.1 408 ").contains("\"code\":\"request_timeout\"");
		assertThat(output.getAll()).doesNotContainPattern("\\bERROR\\b");
	}

	@Test
	void countsAnAbandonedUploadAsCancelledWithoutAnErrorLog(CapturedOutput output) throws Exception {
		http.delete("/mock/stats");
		RawHttp.abandonedPost(port(), "/v1/chat/completions", "", "{\"model\"", 100, false);
		RawHttp.abandonedPost(port(), "/v1/chat/completions", "", "{\"model\"", 100, true);

		Awaitility.await()
			.untilAsserted(() -> assertThat(http.get("/mock/stats", Map.of())
				.json()
				.path("routes")
				.path("chat_completions")
				.path("cancelled")
				.intValue()).isEqualTo(2));
		assertThat(output.getAll()).doesNotContainPattern("\\bERROR\\b");
	}

	@Test
	void listsModelsAndCountsThem() {
		Response models = http.get("/v1/models", Map.of("Authorization", "Bearer sk-app-one1"));

		assertThat(models.status()).isEqualTo(200);
		assertThat(models.json().path("data").size()).isEqualTo(
				List.of("gpt-4o-mini", "gpt-4o", "gpt-4.1-mini", "claude-haiku-4-5", "claude-sonnet-4-5").size());
	}

	@Test
	void acceptsTheConnectionsThatArrivedWhileItsLoopWasBusyAtOnce() throws Exception {
		try (AcceptBursts burst = AcceptBursts.connectWhileBusy(ListeningChannel.channel, port(), 50)) {
			assertThat(burst.batches()).containsExactly(50);
			assertThat(burst.statusLines("/actuator/health")).hasSize(50).containsOnly("HTTP/1.1 200 OK");
		}
	}

	/** Keeps the server's listening channel for the test that holds its event loop. */
	@Configuration(proxyBeanMethods = false)
	static class ListeningChannel {

		static volatile Channel channel;

		@Bean
		NettyServerCustomizer listeningChannel() {
			return (server) -> server.doOnBound((bound) -> channel = bound.channel());
		}

	}

}
