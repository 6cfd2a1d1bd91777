package dev.junction.messaging.web;

import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import dev.junction.messaging.support.IntegrationTestSupport;
import dev.junction.messaging.support.LogCapture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.JsonNode;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Mistakes a client can make get a 4xx problem in the client's terms, never a parser's
 * internals, and never an ERROR log line: ERROR is for the operator's faults, and the alert
 * on error logs must not be a client's to trigger.
 */
class ClientErrorsIntegrationTests extends IntegrationTestSupport {

	/** What an answer must never show: parser classes, features, limits and source markers. */
	private static final List<String> INTERNALS = List.of("jackson", "tools.", "fasterxml", "StreamReadConstraints",
			"JsonNode", "FAIL_ON", "Feature", "Source", "REDACTED", "line:", "column:", "java.", "Exception", "$",
			"Request`", "`", "token", "Token");

	@RegisterExtension
	final LogCapture logs = new LogCapture();

	@AfterEach
	void loggedNoError() {
		await().during(Duration.ofMillis(300))
			.atMost(Duration.ofSeconds(5))
			.untilAsserted(() -> assertThat(this.logs.errors()).isEmpty());
	}

	@Test
	void explainsMalformedJsonWithoutTheParsersWords() {
		for (String body : List.of("{\"name\": ", "{\"name\":\"a\",\"channel\":\"sms\"} trailing", "[1, 2]",
				"\"text\"", "{\"name\":\"a\" \"channel\":\"sms\"}", "{'name':'a'}", "{\"name\":\"x\",\"channel\":NaN}",
				"{\"name\":\"x\",\"channel\":\"sms\",\"settings\":{\"a\":01}}", "{\"name\":\"a\"}}", "nul")) {
			assertClientsTerms(postRaw("/instances", body, HttpStatus.BAD_REQUEST), body);
		}
	}

	@Test
	void namesAFieldGivenTwice() {
		JsonNode problem = postRaw("/instances", "{\"name\":\"a\",\"channel\":\"sms\",\"name\":\"b\"}", HttpStatus.BAD_REQUEST);
		assertClientsTerms(problem, "duplicate");
		assertThat(problem.get("field").asString()).isEqualTo("name");
	}

	@Test
	void rejectsNumbersTooLongOrOutOfRange() {
		String longNumber = "9".repeat(2000);
		JsonNode tooLong = postRaw("/instances",
				"{\"name\":\"" + uniqueName("n") + "\",\"channel\":\"sms\",\"settings\":{\"n\":" + longNumber + "}}",
				HttpStatus.BAD_REQUEST);
		assertClientsTerms(tooLong, "long number");
		assertThat(tooLong.get("detail").asString()).contains("number");
		JsonNode overflow = postRaw("/instances",
				"{\"name\":\"" + uniqueName("n") + "\",\"channel\":\"sms\",\"settings\":{\"n\":1e400}}",
				HttpStatus.BAD_REQUEST);
		assertThat(assertClientsTerms(overflow, "1e400").get("field").asString()).isEqualTo("settings.n");
		JsonNode enumByNumber = postRaw("/instances", "{\"name\":\"" + uniqueName("n") + "\",\"channel\":3}",
				HttpStatus.BAD_REQUEST);
		assertThat(assertClientsTerms(enumByNumber, "channel 3").get("field").asString()).isEqualTo("channel");
		JsonNode limit = get(this.admin, "/instances?limit=1e20", HttpStatus.BAD_REQUEST);
		assertThat(assertClientsTerms(limit, "limit").get("field").asString()).isEqualTo("limit");
	}

	@Test
	void rejectsBodiesNestedTooDeeply() {
		String deep = "[".repeat(3000) + "]".repeat(3000);
		JsonNode problem = postRaw("/instances",
				"{\"name\":\"" + uniqueName("n") + "\",\"channel\":\"sms\",\"settings\":{\"n\":" + deep + "}}",
				HttpStatus.BAD_REQUEST);
		assertClientsTerms(problem, "deep");
	}

	@Test
	void namesTheFieldOfAValueOfTheWrongType() {
		UUID instance = createInstance();
		assertThat(postRaw("/chats", "{\"instanceId\":\"nope\",\"remoteId\":\"r\"}", HttpStatus.BAD_REQUEST).get("field")
			.asString()).isEqualTo("instanceId");
		assertThat(postRaw("/chats", "{\"instanceId\":\"" + instance + "\",\"remoteId\":{\"a\":1}}", HttpStatus.BAD_REQUEST)
			.get("field")
			.asString()).isEqualTo("remoteId");
		JsonNode scopes = postRaw("/api-keys", "{\"name\":\"k\",\"scopes\":\"read\"}", HttpStatus.BAD_REQUEST);
		assertThat(assertClientsTerms(scopes, "scopes").get("field").asString()).isEqualTo("scopes");
	}

	@Test
	void rejectsCursorsAndTimesOutsideWhatTheDatabaseStores() {
		String crafted = Base64.getUrlEncoder()
			.withoutPadding()
			.encodeToString(ByteBuffer.allocate(24).putLong(Long.MIN_VALUE).putLong(1).putLong(1).array());
		assertThat(get(this.admin, "/events?cursor=" + crafted, HttpStatus.BAD_REQUEST).get("field").asString())
			.isEqualTo("cursor");
		assertThat(get(this.admin, "/events?since=-290000-01-01T00:00:00Z", HttpStatus.BAD_REQUEST).get("field")
			.asString()).isEqualTo("since");
		assertThat(get(this.admin, "/messages?until=+290000-01-01T00:00:00Z", HttpStatus.BAD_REQUEST).get("field")
			.asString()).isEqualTo("until");
	}

	@Test
	void rejectsTextTheDatabaseCannotStore() {
		JsonNode name = postRaw("/instances", "{\"name\":\"a\\u0000b\",\"channel\":\"sms\"}", HttpStatus.BAD_REQUEST);
		assertThat(assertClientsTerms(name, "NUL").get("field").asString()).isEqualTo("name");
		UUID chat = createChat(createInstance());
		JsonNode text = postRaw("/messages", "{\"chatId\":\"" + chat + "\",\"text\":\"x\\u0000\"}", HttpStatus.BAD_REQUEST);
		assertThat(text.get("field").asString()).isEqualTo("text");
		for (String parameter : List.of("q", "type")) {
			JsonNode query = this.admin.get()
				.uri((uri) -> uri.path("/" + (parameter.equals("q") ? "messages" : "events"))
					.queryParam(parameter, "{value}")
					.build("a\u0000b"))
				.exchange()
				.expectStatus()
				.isBadRequest()
				.expectBody(JsonNode.class)
				.returnResult()
				.getResponseBody();
			assertThat(query.get("field").asString()).isEqualTo(parameter);
		}
	}

	@Test
	void rejectsAContentTypeItCannotRead() throws Exception {
		HttpClient client = HttpClient.newHttpClient();
		for (String type : List.of("application/json; charset=no-such-charset", "text/plain", "not a media type",
				"application/json; charset=\"")) {
			HttpResponse<String> response = client.send(HttpRequest
				.newBuilder(URI.create("http://127.0.0.1:" + this.port + "/api/v2/instances"))
				.header("x-api-key", ADMIN_KEY)
				.header("Content-Type", type)
				.POST(HttpRequest.BodyPublishers.ofString("{\"name\":\"" + uniqueName("ct") + "\",\"channel\":\"sms\"}"))
				.build(), HttpResponse.BodyHandlers.ofString());
			assertThat(response.statusCode()).as(type).isIn(400, 415);
			assertThat(response.headers().firstValue("Content-Type")).as(type).hasValue("application/problem+json");
		}
	}

	@Test
	void anAbortedUploadIsNotAnError() throws Exception {
		for (int i = 0; i < 3; i++) {
			try (Socket socket = new Socket("127.0.0.1", this.port)) {
				OutputStream out = socket.getOutputStream();
				out.write(("POST /api/v2/instances HTTP/1.1\r\nHost: localhost\r\nx-api-key: " + ADMIN_KEY
						+ "\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"name\":")
					.getBytes(StandardCharsets.US_ASCII));
				out.flush();
				Thread.sleep(200);
			}
		}
		// The server is still there for everybody else.
		get(this.admin, "/instances?limit=1", HttpStatus.OK);
	}

	@Test
	void aClientLeavingBeforeTheAnswerIsNotAnError() throws Exception {
		for (int i = 0; i < 3; i++) {
			try (Socket socket = new Socket("127.0.0.1", this.port)) {
				socket.getOutputStream()
					.write(("GET /api/v2/events?limit=100 HTTP/1.1\r\nHost: localhost\r\nx-api-key: " + ADMIN_KEY
							+ "\r\n\r\n")
						.getBytes(StandardCharsets.US_ASCII));
				socket.setSoLinger(true, 0);
			}
		}
		try (Socket socket = new Socket("127.0.0.1", this.port)) {
			socket.getOutputStream()
				.write("GET /api/v2/instances HTTP/1.1\r\nHost: localhost\r\nx-api-key: x\r\n\r\n"
					.getBytes(StandardCharsets.US_ASCII));
			InputStream in = socket.getInputStream();
			assertThat(new String(in.readNBytes(12), StandardCharsets.US_ASCII)).isEqualTo("HTTP/1.1 401");
		}
	}

	private JsonNode postRaw(String path, String body, HttpStatus expected) {
		return this.admin.post()
			.uri(path)
			.contentType(MediaType.APPLICATION_JSON)
			.bodyValue(body)
			.exchange()
			.expectStatus()
			.isEqualTo(expected)
			.expectHeader()
			.contentType(MediaType.APPLICATION_PROBLEM_JSON)
			.expectBody(JsonNode.class)
			.returnResult()
			.getResponseBody();
	}

	private static JsonNode assertClientsTerms(JsonNode problem, String what) {
		assertProblem(problem, problem.get("status").asInt(), problem.get("type").asString().replaceAll(".*/", ""));
		String detail = problem.get("detail").asString();
		for (String internal : INTERNALS) {
			assertThat(detail).as("detail for %s", what).doesNotContainIgnoringCase(internal);
		}
		if (problem.has("errors")) {
			assertThat(problem.get("errors").toString()).as("errors for %s", what)
				.doesNotContain("jackson", "StreamReadConstraints", "FAIL_ON", "Source");
		}
		return problem;
	}

}
