package dev.junction.gateway.cors;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;

import dev.junction.gateway.support.Http;
import dev.junction.gateway.support.Json;
import dev.junction.gateway.support.RunningGateway;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;

/**
 * CORS on a real gateway: off by default, preflights answered per the Fetch standard when
 * configured.
 */
class CorsIntegrationTests {

	private static final String APP = "https://app.example.com";

	private static final String CHAT = "{\"model\":\"local/echo-1\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";

	private static RunningGateway gateway;

	@BeforeAll
	static void start() {
		gateway = RunningGateway.start(List.of("junction.gateway.providers.local.type=mock",
				"junction.gateway.auth.keys[0]=cors-key", "junction.gateway.cors.allowed-origins[0]=" + APP,
				"junction.gateway.cors.allow-credentials=true", "junction.gateway.cors.max-age=10m"));
	}

	@AfterAll
	static void stop() {
		gateway.close();
	}

	@Test
	void answersAPreflightFromAnAllowedOriginWithoutAKey() {
		HttpResponse<String> response = preflight(gateway, APP, "POST", "authorization, content-type");
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.headers().firstValue("access-control-allow-origin")).hasValue(APP);
		assertThat(response.headers().firstValue("access-control-allow-methods").orElseThrow()).contains("POST");
		assertThat(response.headers().firstValue("access-control-allow-headers").orElseThrow().toLowerCase())
			.contains("authorization")
			.contains("content-type");
		assertThat(response.headers().firstValue("access-control-allow-credentials")).hasValue("true");
		assertThat(response.headers().firstValue("access-control-max-age")).hasValue("600");
		assertThat(response.headers().allValues("vary").toString()).contains("Origin");
	}

	@Test
	void refusesAPreflightFromAnotherOriginOrForAMethodNotAllowed() {
		HttpResponse<String> otherOrigin = preflight(gateway, "https://evil.example.net", "POST", "authorization");
		assertThat(otherOrigin.statusCode()).isEqualTo(403);
		assertThat(otherOrigin.headers().firstValue("access-control-allow-origin")).isEmpty();
		HttpResponse<String> otherMethod = preflight(gateway, APP, "DELETE", null);
		assertThat(otherMethod.statusCode()).isEqualTo(403);
		assertThat(otherMethod.headers().firstValue("access-control-allow-origin")).isEmpty();
	}

	@Test
	void letsTheAllowedOriginReadAnswersAndErrors() {
		HttpResponse<String> ok = post(APP, "Bearer cors-key");
		assertThat(ok.statusCode()).isEqualTo(200);
		assertThat(ok.headers().firstValue("access-control-allow-origin")).hasValue(APP);
		assertThat(ok.headers().firstValue("access-control-expose-headers").orElseThrow()).contains("X-Request-Id")
			.contains("Retry-After");
		HttpResponse<String> unauthorized = post(APP, null);
		assertThat(unauthorized.statusCode()).isEqualTo(401);
		assertThat(unauthorized.headers().firstValue("access-control-allow-origin")).hasValue(APP);
	}

	@Test
	void answersTheHealthCheckToAnAllowedOriginWithItsHeadersAndRefusesAnother() {
		HttpResponse<String> allowed = Http.send(
				HttpRequest.newBuilder(URI.create(gateway.baseUrl() + "/health")).header("Origin", APP).GET().build());
		assertThat(allowed.statusCode()).isEqualTo(200);
		assertThat(allowed.body()).isEqualTo("{\"status\":\"UP\"}");
		assertThat(allowed.headers().firstValue("access-control-allow-origin")).hasValue(APP);
		HttpResponse<String> other = Http.send(HttpRequest.newBuilder(URI.create(gateway.baseUrl() + "/health"))
			.header("Origin", "https://evil.example.net")
			.GET()
			.build());
		assertThat(other.statusCode()).isEqualTo(403);
		assertThat(Http.get(gateway.baseUrl() + "/health").statusCode()).as("without an Origin").isEqualTo(200);
	}

	@Test
	void refusesARequestFromAnotherOriginInTheOpenAiErrorShape() {
		HttpResponse<String> response = post("https://evil.example.net", "Bearer cors-key");
		assertThat(response.statusCode()).isEqualTo(403);
		assertThat(response.headers().firstValue("access-control-allow-origin")).isEmpty();
		assertThat(Json.parse(response.body()).path("error").path("type").asString()).isEqualTo("permission_error");
	}

	@Test
	void isOffByDefault() {
		try (RunningGateway plain = RunningGateway.start(List.of("junction.gateway.providers.local.type=mock"))) {
			HttpResponse<String> response = preflight(plain, APP, "POST", "content-type");
			assertThat(response.headers().firstValue("access-control-allow-origin")).isEmpty();
			assertThat(response.headers().firstValue("access-control-allow-methods")).isEmpty();
			HttpResponse<String> actual = Http
				.send(request(plain, APP, null).POST(HttpRequest.BodyPublishers.ofString(CHAT)).build());
			assertThat(actual.statusCode()).isEqualTo(200);
			assertThat(actual.headers().firstValue("access-control-allow-origin")).isEmpty();
		}
	}

	@Test
	void refusesToStartWithCredentialsForAnyOrigin() {
		assertThatException()
			.isThrownBy(() -> RunningGateway.start(
					List.of("junction.gateway.cors.allowed-origins=*", "junction.gateway.cors.allow-credentials=true")))
			.satisfies((ex) -> assertThat(rootMessage(ex)).contains("junction.gateway.cors.allow-credentials"));
	}

	private static String rootMessage(Throwable error) {
		StringBuilder messages = new StringBuilder();
		for (Throwable cause = error; cause != null; cause = cause.getCause()) {
			messages.append(cause.getMessage()).append('\n');
		}
		return messages.toString();
	}

	private static HttpResponse<String> preflight(RunningGateway gateway, String origin, String method,
			String headers) {
		HttpRequest.Builder request = request(gateway, origin, null)
			.method("OPTIONS", HttpRequest.BodyPublishers.noBody())
			.header("Access-Control-Request-Method", method);
		if (headers != null) {
			request.header("Access-Control-Request-Headers", headers);
		}
		return Http.send(request.build());
	}

	private static HttpResponse<String> post(String origin, String authorization) {
		return Http
			.send(request(gateway, origin, authorization).POST(HttpRequest.BodyPublishers.ofString(CHAT)).build());
	}

	private static HttpRequest.Builder request(RunningGateway gateway, String origin, String authorization) {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(gateway.baseUrl() + "/v1/chat/completions"))
			.timeout(Duration.ofSeconds(30))
			.header("Content-Type", "application/json")
			.header("Origin", origin);
		if (authorization != null) {
			request.header("Authorization", authorization);
		}
		return request;
	}

}
