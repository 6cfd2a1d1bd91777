package dev.junction.messaging.web;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.UUID;

import dev.junction.messaging.support.IntegrationTestSupport;
import dev.junction.messaging.support.LogCapture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.JsonNode;

import org.springframework.http.HttpStatus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Mistakes a client can make get a 4xx problem in the client's terms, never a parser's
 * internals, and never an ERROR log line: ERROR is for the operator's faults, and the
 * alert on error logs must not be a client's to trigger.
 */
class ClientErrorsIntegrationTests extends IntegrationTestSupport {

	/**
	 * What an answer must never show: parser classes, features, limits and source
	 * markers.
	 */
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
	void answersAPathThatClimbsOutOfTheRootWith404AndNoWarning() throws Exception {
		HttpResponse<String> response = HttpClient.newHttpClient()
			.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + "/%2e%2e/admin")).build(),
					HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).isEqualTo(404);
		assertThat(response.headers().firstValue("content-type")).hasValue("application/problem+json");
		assertThat(this.logs.warnings()).noneMatch((warning) -> warning.contains("Path contains"));
	}

	@Test
	void explainsMalformedJsonWithoutTheParsersWords() {
		for (String body : List.of("{\"name\": ", "{\"name\":\"a\",\"channel\":\"sms\"} trailing", "[1, 2]", "\"text\"",
				"{\"name\":\"a\" \"channel\":\"sms\"}", "{'name':'a'}", "{\"name\":\"x\",\"channel\":NaN}",
				"{\"name\":\"x\",\"channel\":\"sms\",\"settings\":{\"a\":01}}", "{\"name\":\"a\"}}", "nul")) {
			assertClientsTerms(rejected("/instances", body), body);
		}
	}

	@Test
	void namesAFieldGivenTwice() {
		JsonNode problem = rejected("/instances", "{\"name\":\"a\",\"channel\":\"sms\",\"name\":\"b\"}");
		assertClientsTerms(problem, "duplicate");
		assertThat(problem.get("field").asString()).isEqualTo("name");
	}

	@Test
	void rejectsNumbersTooLongOrOutOfRange() {
		String longNumber = "9".repeat(2000);
		JsonNode tooLong = rejected("/instances", instanceWithSetting(longNumber));
		assertClientsTerms(tooLong, "long number");
		assertThat(tooLong.get("detail").asString()).contains("number");
		JsonNode overflow = rejected("/instances", instanceWithSetting("1e400"));
		assertThat(assertClientsTerms(overflow, "1e400").get("field").asString()).isEqualTo("settings.n");
		JsonNode enumByNumber = rejected("/instances", "{\"name\":\"" + uniqueName("n") + "\",\"channel\":3}");
		assertThat(assertClientsTerms(enumByNumber, "channel 3").get("field").asString()).isEqualTo("channel");
		JsonNode limit = get(this.admin, "/instances?limit=1e20", HttpStatus.BAD_REQUEST);
		assertThat(assertClientsTerms(limit, "limit").get("field").asString()).isEqualTo("limit");
	}

	@Test
	void rejectsBodiesNestedTooDeeply() {
		String deep = "[".repeat(3000) + "]".repeat(3000);
		JsonNode problem = rejected("/instances", instanceWithSetting(deep));
		assertClientsTerms(problem, "deep");
	}

	@Test
	void namesTheFieldOfAValueOfTheWrongType() {
		UUID instance = createInstance();
		assertThat(rejected("/chats", "{\"instanceId\":\"nope\",\"remoteId\":\"r\"}").get("field").asString())
			.isEqualTo("instanceId");
		assertThat(rejected("/chats", "{\"instanceId\":\"" + instance + "\",\"remoteId\":{\"a\":1}}").get("field")
			.asString()).isEqualTo("remoteId");
		JsonNode scopes = rejected("/api-keys", "{\"name\":\"k\",\"scopes\":\"read\"}");
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
		JsonNode name = rejected("/instances", "{\"name\":\"a\\u0000b\",\"channel\":\"sms\"}");
		assertThat(assertClientsTerms(name, "NUL").get("field").asString()).isEqualTo("name");
		UUID chat = createChat(createInstance());
		JsonNode text = rejected("/messages", "{\"chatId\":\"" + chat + "\",\"text\":\"x\\u0000\"}");
		assertThat(text.get("field").asString()).isEqualTo("text");
		for (String parameter : List.of("q", "type")) {
			JsonNode query = answer(this.admin.get()
				.uri((uri) -> uri.path("/" + (parameter.equals("q") ? "messages" : "events"))
					.queryParam(parameter, "{value}")
					.build("a\u0000b")), HttpStatus.BAD_REQUEST);
			assertThat(query.get("field").asString()).isEqualTo(parameter);
		}
	}

	@Test
	void rejectsAContentTypeItCannotRead() throws Exception {
		HttpClient client = HttpClient.newHttpClient();
		for (String type : List.of("application/json; charset=no-such-charset", "text/plain", "not a media type",
				"application/json; charset=\"")) {
			HttpResponse<String> response = client
				.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + "/api/v2/instances"))
					.header("x-api-key", ADMIN_KEY)
					.header("Content-Type", type)
					.POST(HttpRequest.BodyPublishers
						.ofString("{\"name\":\"" + uniqueName("ct") + "\",\"channel\":\"sms\"}"))
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

	/** A new instance whose setting {@code n} is {@code json}. */
	private static String instanceWithSetting(String json) {
		return "{\"name\":\"" + uniqueName("n") + "\",\"channel\":\"sms\",\"settings\":{\"n\":" + json + "}}";
	}

	/** The 400 problem answering {@code json} POSTed to {@code path}. */
	private JsonNode rejected(String path, String json) {
		return post(this.admin, path, json, HttpStatus.BAD_REQUEST);
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
