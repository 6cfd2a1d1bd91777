package dev.junction.gateway.error;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import dev.junction.gateway.support.Http;
import dev.junction.gateway.support.Json;
import dev.junction.gateway.support.NoErrorLogs;
import dev.junction.gateway.support.RawHttp;
import dev.junction.gateway.support.RunningGateway;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Requests that are too large, malformed, stalled or abandoned, sent to the real gateway:
 * each gets an answer in OpenAI's error shape (Anthropic's on the Messages API) with a
 * request id that the client actually reads, and none costs a connection held forever or
 * an ERROR line.
 */
class RequestGuardIntegrationTests {

	private static final String CHAT = "{\"model\":\"mock/echo-1\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";

	@RegisterExtension
	final NoErrorLogs noErrorLogs = new NoErrorLogs();

	private static RunningGateway gateway;

	@BeforeAll
	static void start() {
		gateway = RunningGateway
			.start(List.of("junction.gateway.http.read-timeout=500ms", "junction.gateway.http.max-body-size=10MB"));
	}

	@AfterAll
	static void stop() {
		gateway.close();
	}

	@Test
	void answersHeadersTooLargeWith431InOpenAiShape() throws IOException {
		try (RawHttp http = RawHttp.connect(gateway.port())) {
			RawHttp.Response response = http
				.send("GET /v1/models HTTP/1.1\r\nHost: localhost\r\nX-Big: " + "x".repeat(20_000) + "\r\n\r\n")
				.read();
			assertThat(response.status()).isEqualTo(431);
			assertRefusal(response, "request_headers_too_large", "headers are too large");
			assertThat(http.closedWithin(Duration.ofSeconds(5))).isTrue();
		}
	}

	@Test
	void answersAUrlTooLongWith414InOpenAiShape() throws IOException {
		try (RawHttp http = RawHttp.connect(gateway.port())) {
			RawHttp.Response response = http
				.send("GET /v1/models?q=" + "x".repeat(10_000) + " HTTP/1.1\r\nHost: localhost\r\n\r\n")
				.read();
			assertThat(response.status()).isEqualTo(414);
			assertRefusal(response, "uri_too_long", "shorten the URL");
		}
	}

	@Test
	void answersHeadersTooLargeOnTheMessagesApiWith431InAnthropicsShape() throws IOException {
		for (String path : List.of("/v1/messages", "/v1/messages/count_tokens?beta=true")) {
			try (RawHttp http = RawHttp.connect(gateway.port())) {
				RawHttp.Response response = http
					.send("POST " + path + " HTTP/1.1\r\nHost: localhost\r\nX-Big: " + "x".repeat(20_000)
							+ "\r\nContent-Length: 2\r\n\r\n{}")
					.read();
				assertThat(response.status()).isEqualTo(431);
				assertAnthropicRefusal(response, "headers are too large");
			}
		}
	}

	@Test
	void answersAUrlTooLongOnTheMessagesApiWith414InAnthropicsShape() throws IOException {
		for (String path : List.of("/v1/messages?beta=", "/v1/messages/count_tokens?q=", "/v1/messages/")) {
			try (RawHttp http = RawHttp.connect(gateway.port())) {
				RawHttp.Response response = http
					.send("POST " + path + "x".repeat(10_000) + " HTTP/1.1\r\nHost: localhost\r\n\r\n")
					.read();
				assertThat(response.status()).isEqualTo(414);
				assertAnthropicRefusal(response, "shorten the URL");
			}
		}
	}

	@Test
	void answersEachRequestOfAConnectionInTheShapeOfItsOwnPath() throws IOException {
		try (RawHttp http = RawHttp.connect(gateway.port())) {
			assertThat(http.send("GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n").read().status()).isEqualTo(200);
			RawHttp.Response response = http
				.send("POST /v1/messages?beta=" + "x".repeat(10_000) + " HTTP/1.1\r\nHost: localhost\r\n\r\n")
				.read();
			assertThat(response.status()).isEqualTo(414);
			assertAnthropicRefusal(response, "shorten the URL");
		}
		try (RawHttp http = RawHttp.connect(gateway.port())) {
			assertThat(http.send("\r\nGET /v1/messages HTTP/1.1\r\nHost: localhost\r\n\r\n").read().status())
				.isEqualTo(405);
			RawHttp.Response response = http
				.send("GET /v1/models?q=" + "x".repeat(10_000) + " HTTP/1.1\r\nHost: localhost\r\n\r\n")
				.read();
			assertThat(response.status()).isEqualTo(414);
			assertRefusal(response, "uri_too_long", "shorten the URL");
		}
	}

	@Test
	void answersABodyThatStopsArrivingWith408AndClosesTheConnection() throws IOException {
		try (RawHttp http = RawHttp.connect(gateway.port())) {
			long start = System.nanoTime();
			RawHttp.Response response = http
				.send("POST /v1/chat/completions HTTP/1.1\r\nHost: localhost\r\n"
						+ "Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"model\"")
				.read();
			assertThat(Duration.ofNanos(System.nanoTime() - start)).isBetween(Duration.ofMillis(400),
					Duration.ofSeconds(5));
			assertThat(response.status()).isEqualTo(408);
			JsonNode error = Json.parse(response.body()).path("error");
			assertThat(error.path("code").asString()).isEqualTo("request_timeout");
			assertThat(error.path("message").asString()).contains("stopped arriving");
			assertThat(response.headers()).containsKeys("x-request-id", "server-timing");
			assertThat(http.closedWithin(Duration.ofSeconds(5))).isTrue();
		}
	}

	@Test
	void closesAConnectionWhoseBodyNeverEndsAfterItWasAnswered() throws IOException {
		try (RawHttp http = RawHttp.connect(gateway.port())) {
			RawHttp.Response response = http
				.send("POST /nowhere HTTP/1.1\r\nHost: localhost\r\n" + "Content-Length: 100\r\n\r\n12345678")
				.read();
			assertThat(response.status()).isEqualTo(404);
			assertThat(http.closedWithin(Duration.ofSeconds(5))).isTrue();
		}
	}

	@Test
	void anAbortedUploadIsNoErrorAndCostsNothing() throws Exception {
		for (String path : List.of("/v1/chat/completions", "/rpc", "/trpc/ai.generateText")) {
			try (RawHttp http = RawHttp.connect(gateway.port())) {
				http.send("POST " + path + " HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
						+ "Content-Length: 100\r\n\r\n{\"model\"");
				Thread.sleep(100);
			}
		}
		Thread.sleep(300);
		assertThat(Http.post(gateway.baseUrl() + "/v1/chat/completions", null, CHAT).statusCode()).isEqualTo(200);
	}

	@Test
	void aJdkClientUploadingElevenMegabytesReadsThe413() throws Exception {
		byte[] body = new byte[11 * 1024 * 1024];
		HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
		HttpResponse<String> declared = client.send(request(HttpRequest.BodyPublishers.ofByteArray(body)),
				HttpResponse.BodyHandlers.ofString());
		assertThat(declared.statusCode()).isEqualTo(413);
		assertThat(Json.parse(declared.body()).path("error").path("code").asString()).isEqualTo("request_too_large");
		HttpResponse<String> chunked = client.send(
				request(HttpRequest.BodyPublishers.ofInputStream(() -> new java.io.ByteArrayInputStream(body))),
				HttpResponse.BodyHandlers.ofString());
		assertThat(chunked.statusCode()).isEqualTo(413);
	}

	@Test
	void pythonsUrllibUploadingElevenMegabytesReadsThe413() throws Exception {
		assumeTrue(onPath("python3"), "python3 is not installed");
		String script = String.join("\n", "import sys, urllib.request, urllib.error",
				"request = urllib.request.Request(sys.argv[1], data=b'x' * (11 * 1024 * 1024),",
				"    headers={'Content-Type': 'application/json'})", "try:", "    urllib.request.urlopen(request)",
				"    print('no error')", "except urllib.error.HTTPError as error:",
				"    print(error.code, error.headers.get('X-Request-Id') is not None, error.read().decode())");
		Process python = new ProcessBuilder("python3", "-c", script, gateway.baseUrl() + "/v1/chat/completions")
			.redirectErrorStream(true)
			.start();
		String output;
		try (InputStream in = python.getInputStream()) {
			output = new String(in.readAllBytes(), StandardCharsets.UTF_8).strip();
		}
		assertThat(python.waitFor()).as(output).isZero();
		assertThat(output).startsWith("413 True ").contains("\"code\":\"request_too_large\"");
	}

	private static void assertRefusal(RawHttp.Response response, String code, String says) {
		assertThat(response.headers().get("content-type")).startsWith("application/json");
		assertThat(response.headers().get("x-request-id")).matches("[0-9a-f]{32}");
		assertThat(response.headers().get("server-timing")).matches("gateway;dur=[0-9.]+, upstream;dur=0.000");
		JsonNode error = Json.parse(response.body()).path("error");
		assertThat(error.path("type").asString()).isEqualTo("invalid_request_error");
		assertThat(error.path("code").asString()).isEqualTo(code);
		assertThat(error.path("message").asString()).contains(says);
	}

	private static void assertAnthropicRefusal(RawHttp.Response response, String says) {
		assertThat(response.headers().get("content-type")).startsWith("application/json");
		String requestId = response.headers().get("x-request-id");
		assertThat(requestId).matches("[0-9a-f]{32}");
		JsonNode body = Json.parse(response.body());
		assertThat(body.path("type").asString()).isEqualTo("error");
		assertThat(body.path("error").path("type").asString()).isEqualTo("invalid_request_error");
		assertThat(body.path("error").path("message").asString()).contains(says);
		assertThat(body.path("request_id").asString()).isEqualTo(requestId);
	}

	private static HttpRequest request(HttpRequest.BodyPublisher body) {
		return HttpRequest.newBuilder(URI.create(gateway.baseUrl() + "/v1/chat/completions"))
			.timeout(Duration.ofSeconds(30))
			.header("Content-Type", "application/json")
			.POST(body)
			.build();
	}

	private static boolean onPath(String command) {
		for (String dir : System.getenv("PATH").split(File.pathSeparator)) {
			if (new File(dir, command).canExecute()) {
				return true;
			}
		}
		return false;
	}

}
