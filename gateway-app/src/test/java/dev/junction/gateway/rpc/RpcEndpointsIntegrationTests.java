package dev.junction.gateway.rpc;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import dev.junction.gateway.support.Http;
import dev.junction.gateway.support.Json;
import dev.junction.gateway.support.RunningGateway;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.HttpHandler;
import org.springframework.http.server.reactive.HttpHandlerDecoratorFactory;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.http.server.reactive.MockServerHttpResponse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code POST /rpc} and {@code GET}/{@code POST /trpc/{path}} are served in front of
 * WebFlux's dispatch, with everything a request gets on the way there: gateway keys, the
 * request id, {@code Server-Timing} and the request metric under its route.
 */
class RpcEndpointsIntegrationTests {

	private static final String KEY = "Bearer endpoints-key";

	private static final String HEALTH = "{\"jsonrpc\":\"2.0\",\"method\":\"system.health\",\"id\":1}";

	private static RunningGateway gateway;

	@BeforeAll
	static void start() {
		gateway = RunningGateway.start(List.of("junction.gateway.auth.keys[0]=endpoints-key"));
	}

	@AfterAll
	static void stop() {
		gateway.close();
	}

	@Test
	void servesTheRpcPathsItselfAndHandsOnEverythingElse() {
		HttpHandlerDecoratorFactory decorator = gateway.context()
			.getBean("rpcEndpoints", HttpHandlerDecoratorFactory.class);
		AtomicReference<String> handedOn = new AtomicReference<>();
		HttpHandler handler = decorator.apply((request, response) -> {
			handedOn.set(request.getMethod() + " " + request.getPath().value());
			response.setStatusCode(HttpStatus.I_AM_A_TEAPOT);
			return response.setComplete();
		});

		MockServerHttpResponse rpc = serve(handler,
				MockServerHttpRequest.post("/rpc")
					.header("Authorization", KEY)
					.contentType(MediaType.APPLICATION_JSON)
					.body(HEALTH));
		assertThat(rpc.getStatusCode()).isEqualTo(HttpStatus.OK);
		assertThat(Json.parse(rpc.getBodyAsString().block()).at("/result/uptime").isNumber()).isTrue();
		MockServerHttpResponse trpc = serve(handler,
				MockServerHttpRequest.get("/trpc/system.health").header("Authorization", KEY).build());
		assertThat(trpc.getStatusCode()).isEqualTo(HttpStatus.OK);
		assertThat(Json.parse(trpc.getBodyAsString().block()).at("/result/data/uptime").isNumber()).isTrue();
		MockServerHttpResponse refused = serve(handler,
				MockServerHttpRequest.post("/rpc").contentType(MediaType.APPLICATION_JSON).body(HEALTH));
		assertThat(refused.getStatusCode()).isEqualTo(HttpStatus.UNAUTHORIZED);
		assertThat(Json.parse(refused.getBodyAsString().block()).at("/error/code").asInt()).isEqualTo(-32001);
		assertThat(handedOn.get()).isNull();

		for (MockServerHttpRequest other : List.of(MockServerHttpRequest.get("/rpc").build(),
				MockServerHttpRequest.get("/trpc/a/b").build(), MockServerHttpRequest.get("/trpc/").build(),
				MockServerHttpRequest.put("/trpc/system.health").build(),
				MockServerHttpRequest.get("/health").build())) {
			handedOn.set(null);
			assertThat(serve(handler, other).getStatusCode()).isEqualTo(HttpStatus.I_AM_A_TEAPOT);
			assertThat(handedOn.get()).isEqualTo(other.getMethod() + " " + other.getPath().value());
		}
	}

	@Test
	void answersWithTheRequestIdAndServerTimingAndRecordsTheRequestUnderItsRoute() {
		HttpResponse<String> rpc = Http.post(gateway.baseUrl() + "/rpc", KEY, HEALTH);
		assertThat(rpc.statusCode()).isEqualTo(200);
		assertThat(rpc.headers().firstValue("X-Request-Id")).isPresent();
		assertThat(rpc.headers().firstValue("Server-Timing"))
			.hasValueSatisfying((timing) -> assertThat(timing).startsWith("gateway;dur="));
		// The procedure's name is decoded as a path segment.
		HttpResponse<String> trpc = Http.get(gateway.baseUrl() + "/trpc/system%2Ehealth", KEY);
		assertThat(trpc.statusCode()).isEqualTo(200);
		assertThat(trpc.headers().firstValue("Server-Timing")).isPresent();
		assertThat(Json.parse(trpc.body()).at("/result/data/uptime").isNumber()).isTrue();
		await().atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> assertThat(Http.get(gateway.baseUrl() + "/actuator/prometheus").body())
				.containsPattern("http_server_requests_seconds_count\\{[^}]*method=\"POST\"[^}]*status=\"200\""
						+ "[^}]*uri=\"/rpc\"} [1-9]")
				.containsPattern("http_server_requests_seconds_count\\{[^}]*method=\"GET\"[^}]*status=\"200\""
						+ "[^}]*uri=\"/trpc/\\{path}\"} [1-9]"));
	}

	private static MockServerHttpResponse serve(HttpHandler handler, MockServerHttpRequest request) {
		MockServerHttpResponse response = new MockServerHttpResponse();
		handler.handle(request, response).block(Duration.ofSeconds(10));
		return response;
	}

}
