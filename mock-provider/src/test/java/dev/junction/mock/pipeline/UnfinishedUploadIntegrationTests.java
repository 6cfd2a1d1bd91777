package dev.junction.mock.pipeline;

import java.util.Map;

import dev.junction.mock.MockProviderServer;
import dev.junction.mock.stats.Route;
import dev.junction.mock.support.RawHttp;
import dev.junction.mock.support.TestHttp;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A request body that stops arriving is answered 408 in the provider's error shape after
 * {@code junction.mock.http.read-timeout}, and the connection closed; a client that goes
 * away mid-upload is counted as cancelled, never logged as an error.
 */
@ExtendWith(OutputCaptureExtension.class)
class UnfinishedUploadIntegrationTests {

	private static MockProviderServer server;

	@BeforeAll
	static void start() {
		server = MockProviderServer.start(Map.of("junction.mock.http.read-timeout", "1s"));
	}

	@AfterAll
	static void stop() {
		server.close();
	}

	@Test
	void answersABodyThatStopsArrivingWith408InOpenAisShape(CapturedOutput output) throws Exception {
		long start = System.nanoTime();
		String answer = RawHttp.unfinishedPost(server.port(), "/v1/chat/completions", "", "{\"model\"", 100, 10);

		assertThat((System.nanoTime() - start) / 1_000_000).isBetween(900L, 8_000L);
		assertThat(answer).startsWith("HTTP/1.1 408 ").containsIgnoringCase("connection: close");
		JsonNode error = TestHttp.json(body(answer)).path("error");
		assertThat(error.path("type").stringValue()).isEqualTo("invalid_request_error");
		assertThat(error.path("code").stringValue()).isEqualTo("request_timeout");
		assertThat(error.path("message").stringValue())
			.isEqualTo("The request body did not arrive in time: no bytes for 1000 ms (8 of 100 bytes received).");
		assertThat(output.getAll()).doesNotContainPattern("\\bERROR\\b");
	}

	@Test
	void answersABodyThatStopsArrivingWith408InAnthropicsShape() throws Exception {
		String answer = RawHttp.unfinishedPost(server.port(), "/v1/messages", "anthropic-version: 2023-06-01\r\n",
				"{\"model\"", 100, 10);

		assertThat(answer).startsWith("HTTP/1.1 408 ");
		JsonNode error = TestHttp.json(body(answer));
		assertThat(error.path("type").stringValue()).isEqualTo("error");
		assertThat(error.path("error").path("type").stringValue()).isEqualTo("invalid_request_error");
	}

	@Test
	void countsAnAbandonedUploadAsCancelledWithoutAnErrorLog(CapturedOutput output) throws Exception {
		server.resetStats();
		RawHttp.abandonedPost(server.port(), "/v1/chat/completions", "", "{\"model\"", 100, false);
		RawHttp.abandonedPost(server.port(), "/v1/messages", "", "{\"model\"", 100, true);

		await().untilAsserted(() -> {
			assertThat(server.stats().route(Route.CHAT_COMPLETIONS).cancelled()).isEqualTo(1);
			assertThat(server.stats().route(Route.MESSAGES).cancelled()).isEqualTo(1);
		});
		assertThat(TestHttp.of(server)
			.post("/v1/chat/completions",
					"{\"model\":\"gpt-4o-mini\",\"messages\":" + "[{\"role\":\"user\",\"content\":\"hi\"}]}")
			.status()).isEqualTo(200);
		assertThat(output.getAll()).doesNotContainPattern("\\bERROR\\b");
	}

	private static String body(String answer) {
		return answer.substring(answer.indexOf("\r\n\r\n") + 4);
	}

}
