package dev.junction.messaging.web;

import dev.junction.messaging.support.IntegrationTestSupport;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.test.context.TestPropertySource;
import org.springframework.test.web.reactive.server.WebTestClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * CORS with allowed origins configured: preflights answered before the API key check, per
 * the Fetch standard.
 */
@TestPropertySource(properties = { "junction.messaging.cors.allowed-origins=" + CorsIntegrationTests.CONSOLE,
		"junction.messaging.cors.max-age=5m" })
class CorsIntegrationTests extends IntegrationTestSupport {

	static final String CONSOLE = "https://console.example.com";

	@Test
	void answersAPreflightFromAnAllowedOriginWithoutAKey() {
		preflight(CONSOLE, "PATCH").header(HttpHeaders.ACCESS_CONTROL_REQUEST_HEADERS, "x-api-key, content-type")
			.exchange()
			.expectStatus()
			.isOk()
			.expectHeader()
			.valueEquals(HttpHeaders.ACCESS_CONTROL_ALLOW_ORIGIN, CONSOLE)
			.expectHeader()
			.value(HttpHeaders.ACCESS_CONTROL_ALLOW_METHODS, (methods) -> assertThat(methods).contains("PATCH"))
			.expectHeader()
			.value(HttpHeaders.ACCESS_CONTROL_ALLOW_HEADERS,
					(headers) -> assertThat(headers.toLowerCase()).contains("x-api-key").contains("content-type"))
			.expectHeader()
			.valueEquals(HttpHeaders.ACCESS_CONTROL_MAX_AGE, "300")
			.expectHeader()
			.doesNotExist(HttpHeaders.ACCESS_CONTROL_ALLOW_CREDENTIALS)
			.expectBody(Void.class);
	}

	@Test
	void letsTheAllowedOriginReadAnswers() {
		this.admin.get()
			.uri("/instances")
			.header(HttpHeaders.ORIGIN, CONSOLE)
			.exchange()
			.expectStatus()
			.isOk()
			.expectHeader()
			.valueEquals(HttpHeaders.ACCESS_CONTROL_ALLOW_ORIGIN, CONSOLE)
			.expectHeader()
			.value(HttpHeaders.ACCESS_CONTROL_EXPOSE_HEADERS, (exposed) -> assertThat(exposed).contains("X-Request-Id"))
			.expectBody(Void.class);
	}

	@Test
	void refusesAnotherOriginWithAProblem() {
		preflight("https://evil.example.net", "GET").exchange()
			.expectStatus()
			.isForbidden()
			.expectHeader()
			.doesNotExist(HttpHeaders.ACCESS_CONTROL_ALLOW_ORIGIN)
			.expectBody(Void.class);
		JsonNode problem = this.admin.method(HttpMethod.GET)
			.uri("/instances")
			.header(HttpHeaders.ORIGIN, "https://evil.example.net")
			.exchange()
			.expectStatus()
			.isEqualTo(HttpStatus.FORBIDDEN)
			.expectBody(JsonNode.class)
			.returnResult()
			.getResponseBody();
		assertProblem(problem, 403, "forbidden");
	}

	/**
	 * A preflight for {@code GET|PATCH /instances} from {@code origin}, without an API
	 * key.
	 */
	WebTestClient.RequestHeadersSpec<?> preflight(String origin, String method) {
		return client(null).options()
			.uri("/instances")
			.header(HttpHeaders.ORIGIN, origin)
			.header(HttpHeaders.ACCESS_CONTROL_REQUEST_METHOD, method);
	}

}
