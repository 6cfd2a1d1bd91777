package dev.junction.gateway.requestid;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;

import dev.junction.gateway.support.Http;
import dev.junction.gateway.support.Json;
import dev.junction.gateway.support.RunningGateway;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Opt-in structured logs: with {@code logging.structured.format.console=ecs} every line
 * is JSON with the request id.
 */
@ExtendWith(OutputCaptureExtension.class)
class JsonLogIntegrationTests {

	@Test
	void writesTheAccessLogAsEcsJsonWithTheRequestId(CapturedOutput output) throws InterruptedException {
		try (RunningGateway gateway = RunningGateway.start(List.of("logging.structured.format.console=ecs",
				"logging.level.dev.junction.gateway.access=info", "junction.gateway.providers.local.type=mock"))) {
			HttpResponse<String> response = Http
				.send(HttpRequest.newBuilder(URI.create(gateway.baseUrl() + "/v1/chat/completions"))
					.timeout(Duration.ofSeconds(30))
					.header("Content-Type", "application/json")
					.header(RequestId.HEADER, "json-log-1")
					.POST(HttpRequest.BodyPublishers
						.ofString("{\"model\":\"local/echo-1\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}"))
					.build());
			assertThat(response.statusCode()).isEqualTo(200);
			JsonNode line = accessLogLine(output, "json-log-1");
			assertThat(line.path("request").path("id").asString()).isEqualTo("json-log-1");
			assertThat(line.path("http").path("response").path("status_code").asInt()).isEqualTo(200);
			assertThat(line.path("url").path("path").asString()).isEqualTo("/v1/chat/completions");
			assertThat(line.path("log").path("logger").asString()).isEqualTo(RequestIdHandler.ACCESS_LOG);
			assertThat(line.path("message").asString()).startsWith("POST /v1/chat/completions 200 ");
			assertThat(line.path("@timestamp").asString()).isNotEmpty();
		}
	}

	/**
	 * The access log line of {@code requestId}, parsed; it is written as the response
	 * completes, so wait a little.
	 */
	private static JsonNode accessLogLine(CapturedOutput output, String requestId) throws InterruptedException {
		long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
		while (true) {
			String found = output.getOut()
				.lines()
				.filter((line) -> line.contains(requestId) && line.contains(RequestIdHandler.ACCESS_LOG))
				.findFirst()
				.orElse(null);
			if (found != null) {
				assertThat(found).startsWith("{").endsWith("}");
				return Json.parse(found);
			}
			assertThat(System.nanoTime()).as("an access log line for " + requestId).isLessThan(deadline);
			Thread.sleep(20);
		}
	}

}
