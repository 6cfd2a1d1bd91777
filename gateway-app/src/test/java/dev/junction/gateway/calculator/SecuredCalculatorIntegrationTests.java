package dev.junction.gateway.calculator;

import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import dev.junction.calculator.auth.TestCertificates;
import dev.junction.calculator.auth.TestTokens;
import dev.junction.gateway.support.Http;
import dev.junction.gateway.support.Json;
import dev.junction.gateway.support.RunningCalculator;
import dev.junction.gateway.support.RunningGateway;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The gateway reaching a real calculator-service that requires mTLS or a JWT: calls go
 * through with the right credentials, and wrong ones come back as a JSON-RPC error that
 * names the gRPC status, never as a hang or an internal error.
 */
class SecuredCalculatorIntegrationTests {

	private static final String KEY = "secured-calculator-key";

	private static final String SECRET = "a-gateway-test-secret-of-at-least-32-bytes";

	private static final String ISSUER = "https://gateway.junction.test";

	private static final String ADD = "{\"jsonrpc\":\"2.0\",\"method\":\"calculator.add\",\"params\":[2,3],\"id\":1}";

	@TempDir
	Path certificates;

	private final List<AutoCloseable> running = new ArrayList<>();

	@AfterEach
	void stop() throws Exception {
		for (int i = this.running.size() - 1; i >= 0; i--) {
			this.running.get(i).close();
		}
	}

	@Test
	void callsACalculatorThatRequiresMutualTls() throws Exception {
		TestCertificates ca = TestCertificates.authority("junction", this.certificates);
		Path[] server = ca.issue("calculator");
		Path[] client = ca.issue("gateway");
		RunningCalculator calculator = start(RunningCalculator.start("junction.calculator.auth.mode=mtls",
				"junction.calculator.auth.mtls.certificate=file:" + server[0],
				"junction.calculator.auth.mtls.private-key=file:" + server[1],
				"junction.calculator.auth.mtls.trusted-ca=file:" + ca.caCertificate()));
		String tls = "junction.gateway.calculator.tls.";
		RunningGateway trusted = gateway(calculator, tls + "enabled=true", tls + "ca=" + ca.caCertificate(),
				tls + "certificate=" + client[0], tls + "private-key=" + client[1]);
		assertThat(call(trusted).get("result").asDouble()).isEqualTo(5.0);

		RunningGateway withoutCertificate = gateway(calculator, tls + "enabled=true", tls + "ca=" + ca.caCertificate());
		assertRefused(call(withoutCertificate), "UNAVAILABLE");
	}

	@Test
	void callsACalculatorThatRequiresAJwt() throws Exception {
		RunningCalculator calculator = start(RunningCalculator.start("junction.calculator.auth.mode=jwt",
				"junction.calculator.auth.jwt.secret=" + SECRET, "junction.calculator.auth.jwt.issuer=" + ISSUER));
		Instant expiry = Instant.now().plus(Duration.ofHours(1));
		RunningGateway valid = gateway(calculator,
				"junction.gateway.calculator.jwt-token=" + TestTokens.hs256(SECRET, ISSUER, expiry));
		assertThat(call(valid).get("result").asDouble()).isEqualTo(5.0);

		RunningGateway forged = gateway(calculator, "junction.gateway.calculator.jwt-token="
				+ TestTokens.hs256("another-secret-that-is-also-32-bytes-long", ISSUER, expiry));
		JsonNode refused = call(forged);
		assertRefused(refused, "UNAUTHENTICATED");
		assertThat(refused.get("error").get("message").asString()).contains("refused the gateway's credentials");

		RunningGateway none = gateway(calculator);
		assertRefused(call(none), "UNAUTHENTICATED");
	}

	private RunningGateway gateway(RunningCalculator calculator, String... properties) {
		List<String> all = new ArrayList<>(List.of("junction.gateway.auth.keys[0]=" + KEY,
				"junction.gateway.calculator.address=" + calculator.address(),
				"junction.gateway.calculator.deadline=5s"));
		all.addAll(List.of(properties));
		return start(RunningGateway.start(all));
	}

	private <T extends AutoCloseable> T start(T server) {
		this.running.add(server);
		return server;
	}

	private static JsonNode call(RunningGateway gateway) {
		HttpResponse<String> response = Http.post(gateway.baseUrl() + "/rpc", "Bearer " + KEY, ADD);
		JsonNode body = Json.parse(response.body());
		assertThat(body.get("jsonrpc").asString()).isEqualTo("2.0");
		assertThat(body.get("id").asInt()).isEqualTo(1);
		return body;
	}

	private static void assertRefused(JsonNode response, String grpcStatus) {
		assertThat(response.has("result")).isFalse();
		JsonNode error = response.get("error");
		assertThat(error.get("code").asInt()).isEqualTo(-32000);
		assertThat(error.get("data").get("grpcStatus").asString()).isEqualTo(grpcStatus);
		assertThat(error.get("message").asString()).startsWith("calculator service").doesNotContain("Exception");
	}

}
