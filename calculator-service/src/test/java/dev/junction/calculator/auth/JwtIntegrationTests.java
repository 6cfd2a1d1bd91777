package dev.junction.calculator.auth;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;

import dev.junction.calculator.RunningCalculator;
import dev.junction.calculator.v1.BinaryOperation;
import dev.junction.calculator.v1.CalculatorGrpc;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.health.v1.HealthGrpc;
import io.grpc.stub.MetadataUtils;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

class JwtIntegrationTests {

	private static final String SECRET = "a-test-secret-that-is-at-least-32-bytes-long";

	private static final String ISSUER = "https://issuer.junction.test";

	private static RunningCalculator server;

	private static ManagedChannel channel;

	@BeforeAll
	static void start() {
		server = RunningCalculator.start("junction.calculator.auth.mode=jwt",
				"junction.calculator.auth.jwt.secret=" + SECRET, "junction.calculator.auth.jwt.issuer=" + ISSUER,
				"junction.calculator.auth.jwt.clock-skew=5s");
		channel = server.plaintextChannel();
	}

	@AfterAll
	static void stop() throws InterruptedException {
		server.close();
	}

	@Test
	void acceptsAValidToken() throws Exception {
		String token = TestTokens.hs256(SECRET, ISSUER, Instant.now().plus(Duration.ofMinutes(5)));
		assertThat(calculator(token).add(op(2, 3)).getResult()).isEqualTo(5);
		assertThat(calculator(token).multiply(op(2, 3)).getResult()).as("cached token").isEqualTo(6);
	}

	@Test
	void refusesAnExpiredToken() throws Exception {
		assertUnauthenticated(TestTokens.hs256(SECRET, ISSUER, Instant.now().minus(Duration.ofMinutes(1))), "expired");
	}

	@Test
	void refusesATokenWithABadSignature() throws Exception {
		assertUnauthenticated(TestTokens.hs256("another-secret-that-is-also-32-bytes-long!", ISSUER,
				Instant.now().plus(Duration.ofMinutes(5))), "signature");
	}

	@Test
	void refusesATokenFromAnotherIssuer() throws Exception {
		assertUnauthenticated(
				TestTokens.hs256(SECRET, "https://elsewhere.test", Instant.now().plus(Duration.ofMinutes(5))),
				"issuer");
	}

	@Test
	void refusesAMalformedToken() {
		assertUnauthenticated("not-a-jwt", "well-formed");
	}

	@Test
	void refusesACallWithoutToken() {
		assertThatExceptionOfType(StatusRuntimeException.class)
			.isThrownBy(() -> CalculatorGrpc.newBlockingStub(channel).add(op(1, 1)))
			.satisfies((ex) -> {
				assertThat(ex.getStatus().getCode()).isEqualTo(Status.Code.UNAUTHENTICATED);
				assertThat(ex.getStatus().getDescription()).contains("missing bearer token");
			});
	}

	@Test
	void keepsHealthReachableWithoutToken() {
		assertThat(HealthGrpc.newBlockingStub(channel)
			.check(HealthCheckRequest.newBuilder().setService("calculator.v1.Calculator").build())
			.getStatus()).isEqualTo(ServingStatus.SERVING);
	}

	@Test
	void countsRefusedCallsByReasonAndInTheServerTimer() throws Exception {
		assertThatExceptionOfType(StatusRuntimeException.class)
			.isThrownBy(() -> CalculatorGrpc.newBlockingStub(channel).subtract(op(1, 1)));
		// The server's timer stops once the call is closed, so the client can see the
		// refusal a moment earlier.
		await().atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> assertThat(HttpClient.newHttpClient()
				.send(HttpRequest
					.newBuilder(URI.create("http://127.0.0.1:" + server.httpPort() + "/actuator/prometheus"))
					.build(), HttpResponse.BodyHandlers.ofString())
				.body())
				.containsPattern(
						"junction_calculator_auth_rejections_calls_total\\{[^}]*reason=\"missing\"[^}]*} [1-9]")
				.containsPattern(
						"grpc_server_seconds_count\\{[^}]*grpc_status_code=\"UNAUTHENTICATED\"[^}]*rpc_method=\"Subtract\"[^}]*} [1-9]"));
	}

	private static CalculatorGrpc.CalculatorBlockingStub calculator(String token) {
		Metadata headers = new Metadata();
		headers.put(JwtAuthenticationInterceptor.AUTHORIZATION, "Bearer " + token);
		return CalculatorGrpc.newBlockingStub(channel)
			.withInterceptors(MetadataUtils.newAttachHeadersInterceptor(headers));
	}

	private static void assertUnauthenticated(String token, String message) {
		assertThatExceptionOfType(StatusRuntimeException.class).isThrownBy(() -> calculator(token).add(op(1, 1)))
			.satisfies((ex) -> {
				assertThat(ex.getStatus().getCode()).isEqualTo(Status.Code.UNAUTHENTICATED);
				assertThat(ex.getStatus().getDescription()).contains(message);
			});
	}

	private static BinaryOperation op(double a, double b) {
		return BinaryOperation.newBuilder().setA(a).setB(b).build();
	}

}
