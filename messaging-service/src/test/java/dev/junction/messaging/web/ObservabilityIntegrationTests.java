package dev.junction.messaging.web;

import java.time.Duration;
import java.util.Map;

import dev.junction.messaging.support.IntegrationTestSupport;
import org.junit.jupiter.api.Test;

import org.springframework.http.HttpStatus;
import org.springframework.test.web.reactive.server.WebTestClient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Actuator on the main port, the request timer, the pool and JVM metrics, and request
 * ids.
 */
class ObservabilityIntegrationTests extends IntegrationTestSupport {

	@Test
	void servesHealthAndPrometheusWithoutAnApiKey() {
		String health = client(null).get()
			.uri(actuator("health"))
			.exchange()
			.expectStatus()
			.isOk()
			.expectBody(String.class)
			.returnResult()
			.getResponseBody();
		assertThat(health).contains("\"status\":\"UP\"");
		assertThat(prometheus()).contains("# TYPE jvm_memory_used_bytes gauge")
			.containsPattern("process_cpu_usage\\{application=\"messaging-service\"}");
	}

	@Test
	void timesApiRequestsByRouteGroupMethodAndStatusWithSloBuckets() {
		createInstance();
		get(client(null), "/instances", HttpStatus.UNAUTHORIZED);
		get(this.admin, "/chats/not-a-uuid/messages", HttpStatus.BAD_REQUEST);
		// Both timers stop once the response is written, so the client can see it a
		// moment earlier.
		await().atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> assertThat(prometheus())
				.containsPattern(
						series("junction_messaging_requests_seconds_count", "instances", "POST", "success", "201")
								+ " [1-9]")
				.containsPattern(
						series("junction_messaging_requests_seconds_count", "instances", "GET", "client_error", "401")
								+ " [1-9]")
				.containsPattern(
						series("junction_messaging_requests_seconds_count", "messages", "GET", "client_error", "400")
								+ " [1-9]")
				.containsPattern(bucket("junction_messaging_requests_seconds_bucket", "instances", "POST", "success",
						"201", "0.001"))
				.containsPattern(bucket("junction_messaging_requests_seconds_bucket", "instances", "POST", "success",
						"201", "60.0"))
				.containsPattern("junction_messaging_requests_seconds_bucket\\{[^}]*le=\"\\+Inf\"} [1-9]")
				.doesNotContainPattern("junction_messaging_requests_seconds_bucket\\{[^}]*le=\"1.0E-4\"")
				.containsPattern(
						"http_server_requests_seconds_bucket\\{[^}]*uri=\"/api/v2/instances\"[^}]*le=\"0.0025\"}")
				.doesNotContain("http_server_requests_active_seconds_bucket"));
	}

	@Test
	void exportsTheConnectionPoolGauges() {
		createInstance();
		assertThat(prometheus())
			.containsPattern("r2dbc_pool_acquired_connections\\{[^}]*name=\"connectionFactory\"} [0-9]")
			.containsPattern("r2dbc_pool_idle_connections\\{[^}]*name=\"connectionFactory\"} [0-9]")
			.containsPattern("r2dbc_pool_pending_connections\\{[^}]*name=\"connectionFactory\"} [0-9]")
			.containsPattern("r2dbc_pool_allocated_connections\\{[^}]*name=\"connectionFactory\"} [1-9]")
			.containsPattern("r2dbc_pool_max_allocated_connections\\{[^}]*name=\"connectionFactory\"} [1-9]");
	}

	@Test
	void echoesAnAcceptableRequestId() {
		String id = requestId(this.admin.get().uri("/instances").header(RequestId.HEADER, "client-req:42.a_b"),
				HttpStatus.OK);
		assertThat(id).isEqualTo("client-req:42.a_b");
	}

	@Test
	void replacesAMaliciousOrOversizedRequestId() {
		for (String bad : new String[] { "x".repeat(65), "a b", "id\"><script>", "" }) {
			String id = requestId(client(null).get().uri("/instances").header(RequestId.HEADER, bad),
					HttpStatus.UNAUTHORIZED);
			assertThat(id).matches("[0-9a-f]{32}");
		}
	}

	@Test
	void generatesARequestIdForEveryAnswerIncludingProblemsAndActuator() {
		String first = requestId(client(null).get().uri("/instances"), HttpStatus.UNAUTHORIZED);
		String second = requestId(this.admin.post().uri("/instances").bodyValue(Map.of("name", "")),
				HttpStatus.BAD_REQUEST);
		String third = requestId(client(null).get().uri(actuator("health")), HttpStatus.OK);
		assertThat(first).matches("[0-9a-f]{32}");
		assertThat(second).matches("[0-9a-f]{32}");
		assertThat(third).matches("[0-9a-f]{32}");
		assertThat(first).isNotEqualTo(second).isNotEqualTo(third);
	}

	/**
	 * The {@code X-Request-Id} of the answer to {@code request}, which must have
	 * {@code status}.
	 */
	private static String requestId(WebTestClient.RequestHeadersSpec<?> request, HttpStatus status) {
		return request.exchange()
			.expectStatus()
			.isEqualTo(status)
			.expectBody()
			.returnResult()
			.getResponseHeaders()
			.getFirst(RequestId.HEADER);
	}

	private String actuator(String endpoint) {
		return "http://127.0.0.1:" + this.port + "/actuator/" + endpoint;
	}

	private static String series(String name, String group, String method, String outcome, String status) {
		return name + "\\{application=\"messaging-service\",group=\"" + group + "\",method=\"" + method
				+ "\",outcome=\"" + outcome + "\",status=\"" + status + "\"}";
	}

	private static String bucket(String name, String group, String method, String outcome, String status, String le) {
		return name + "\\{application=\"messaging-service\",group=\"" + group + "\",method=\"" + method
				+ "\",outcome=\"" + outcome + "\",status=\"" + status + "\",le=\"" + le.replace(".", "\\.") + "\"}";
	}

}
