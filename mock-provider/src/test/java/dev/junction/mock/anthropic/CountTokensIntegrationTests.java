package dev.junction.mock.anthropic;

import java.util.Map;

import dev.junction.mock.MockProviderServer;
import dev.junction.mock.support.Requests;
import dev.junction.mock.support.TestHttp;
import dev.junction.mock.support.TestHttp.Response;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code POST /v1/messages/count_tokens}: the input tokens that {@code /v1/messages}
 * would report.
 */
class CountTokensIntegrationTests {

	private static final String PATH = "/v1/messages/count_tokens";

	private static MockProviderServer server;

	private static TestHttp http;

	@BeforeAll
	static void start() {
		server = MockProviderServer.start(Map.of("junction.mock.retry-after-seconds", 2));
		http = TestHttp.of(server);
	}

	@AfterAll
	static void stop() {
		server.close();
	}

	@Test
	void countsWhatTheMessageWouldUse() {
		String request = """
				{"model":"claude-sonnet-4-5","system":"You answer in French, briefly and politely.",
				 "messages":[{"role":"user","content":"What is the weather like in Paris today?"}]}""";
		Response counted = http.post(PATH, request);
		Response message = http.post("/v1/messages", request.replaceFirst("\\{", "{\"max_tokens\":64,"));

		assertThat(counted.status()).isEqualTo(200);
		assertThat(counted.json().size()).isEqualTo(1);
		assertThat(counted.json().path("input_tokens").intValue()).isGreaterThan(1)
			.isEqualTo(message.json().path("usage").path("input_tokens").intValue());
	}

	@Test
	void refusesAMalformedRequestInAnthropicsErrorShape() {
		Response response = http.post(PATH, "{\"model\":\"claude-sonnet-4-5\"}");

		assertThat(response.status()).isEqualTo(400);
		assertThat(response.json().path("type").stringValue()).isEqualTo("error");
		assertThat(response.json().path("error").path("type").stringValue()).isEqualTo("invalid_request_error");
	}

	@Test
	void obeysTheFaultHeaders() {
		Response overloaded = http.post(PATH, Requests.anthropic("hi", ""), Map.of("x-mock-status", "529"));

		assertThat(overloaded.status()).isEqualTo(529);
		assertThat(overloaded.headers().get("retry-after")).isEqualTo("2");
		assertThat(overloaded.json().path("error").path("type").stringValue()).isEqualTo("overloaded_error");
	}

}
