package dev.junction.gateway.calculator;

import java.net.ServerSocket;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;

import dev.junction.gateway.calculator.CalculatorClient.Operation;
import dev.junction.gateway.support.Http;
import dev.junction.gateway.support.Json;
import dev.junction.gateway.support.RunningCalculator;
import dev.junction.gateway.support.RunningGateway;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.netty.NettyChannelBuilder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import reactor.test.StepVerifier;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The gRPC bridge against a real calculator-service on a random port, directly and
 * through /rpc.
 */
class CalculatorClientIntegrationTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(10);

	private static RunningCalculator calculator;

	private static ManagedChannel channel;

	private static CalculatorClient client;

	private static ManagedChannel deadChannel;

	private static CalculatorClient dead;

	private static String deadAddress;

	@BeforeAll
	static void start() throws Exception {
		calculator = RunningCalculator.start();
		CalculatorProperties properties = properties(calculator.address());
		channel = plaintext(calculator.address());
		client = new CalculatorClient(channel, properties);
		try (ServerSocket socket = new ServerSocket(0)) {
			deadAddress = "static://127.0.0.1:" + socket.getLocalPort();
		}
		CalculatorProperties deadProperties = properties(deadAddress);
		deadChannel = plaintext(deadAddress);
		dead = new CalculatorClient(deadChannel, deadProperties);
	}

	@AfterAll
	static void stop() {
		channel.shutdownNow();
		deadChannel.shutdownNow();
		calculator.close();
	}

	/**
	 * The client on a bare channel: the gateway's own channel has its tests in
	 * CalculatorChannelIntegrationTests.
	 */
	private static ManagedChannel plaintext(String address) {
		return NettyChannelBuilder.forTarget(address.replace("static://", "")).usePlaintext().directExecutor().build();
	}

	private static CalculatorProperties properties(String address) {
		// Deadlines longer than the defaults (2 s, 300 ms): a loaded test machine may
		// need them.
		return new CalculatorProperties(address, Duration.ofSeconds(10), Duration.ofSeconds(5), Duration.ofSeconds(1),
				null, new CalculatorProperties.Tls(false, null, null, null, null), Duration.ofMinutes(5),
				Duration.ofSeconds(20));
	}

	@Test
	void calculatesEachOperation() {
		StepVerifier.create(client.calculate(Operation.ADD, 2, 3)).expectNext(5.0).expectComplete().verify(TIMEOUT);
		StepVerifier.create(client.calculate(Operation.SUBTRACT, 2, 3))
			.expectNext(-1.0)
			.expectComplete()
			.verify(TIMEOUT);
		StepVerifier.create(client.calculate(Operation.MULTIPLY, 2, 3))
			.expectNext(6.0)
			.expectComplete()
			.verify(TIMEOUT);
		StepVerifier.create(client.calculate(Operation.DIVIDE, 3, 2)).expectNext(1.5).expectComplete().verify(TIMEOUT);
	}

	@Test
	void rejectsDivisionByZeroAsInvalidArgument() {
		StepVerifier.create(client.calculate(Operation.DIVIDE, 1, 0)).expectErrorSatisfies((error) -> {
			assertThat(error).isInstanceOf(CalculatorException.class);
			assertThat(((CalculatorException) error).code()).isEqualTo(Status.Code.INVALID_ARGUMENT);
			assertThat(((CalculatorException) error).isInvalidArgument()).isTrue();
			assertThat(error.getMessage()).isNotBlank();
		}).verify(TIMEOUT);
	}

	@Test
	void rejectsOverflowAsOutOfRange() {
		StepVerifier.create(client.calculate(Operation.MULTIPLY, 1e308, 10))
			.expectErrorSatisfies(
					(error) -> assertThat(((CalculatorException) error).code()).isEqualTo(Status.Code.OUT_OF_RANGE))
			.verify(TIMEOUT);
	}

	@Test
	void reportsAnUnreachableCalculatorAsUnavailable() {
		StepVerifier.create(dead.calculate(Operation.ADD, 1, 2)).expectErrorSatisfies((error) -> {
			assertThat(((CalculatorException) error).isUnavailable()).isTrue();
			assertThat(error.getMessage()).startsWith("calculator service unavailable: ").contains(deadAddress);
		}).verify(TIMEOUT);
	}

	@Test
	void checksHealthWithTheStandardHealthService() {
		StepVerifier.create(client.health()).expectNext("SERVING").expectComplete().verify(TIMEOUT);
		StepVerifier.create(dead.health()).expectNext("UNAVAILABLE").expectComplete().verify(TIMEOUT);
	}

	@Test
	void mapsCalculatorFailuresToJsonRpcErrors() {
		try (RunningGateway gateway = RunningGateway
			.start(List.of("junction.gateway.calculator.address=" + calculator.address()));
				RunningGateway orphan = RunningGateway
					.start(List.of("junction.gateway.calculator.address=" + deadAddress))) {
			JsonNode zero = Json.parse(Http
				.post(gateway.baseUrl() + "/rpc", null,
						"{\"jsonrpc\":\"2.0\",\"method\":\"calculator.divide\",\"params\":{\"a\":1,\"b\":0},\"id\":1}")
				.body());
			assertThat(zero.at("/error/code").asInt()).isEqualTo(-32602);
			assertThat(zero.at("/error/data/grpcStatus").stringValue()).isEqualTo("INVALID_ARGUMENT");
			HttpResponse<String> down = Http.post(orphan.baseUrl() + "/rpc", null,
					"{\"jsonrpc\":\"2.0\",\"method\":\"calculator.add\",\"params\":[1,2],\"id\":2}");
			assertThat(down.statusCode()).isEqualTo(200);
			JsonNode unavailable = Json.parse(down.body());
			assertThat(unavailable.at("/error/code").asInt()).isEqualTo(-32000);
			assertThat(unavailable.at("/error/message").stringValue()).startsWith("calculator service unavailable: ");
			JsonNode health = Json.parse(Http
				.post(orphan.baseUrl() + "/rpc", null, "{\"jsonrpc\":\"2.0\",\"method\":\"system.health\",\"id\":3}")
				.body());
			assertThat(health.at("/result/status").stringValue()).isEqualTo("degraded");
			assertThat(health.at("/result/dependencies/calculator/status").stringValue()).isEqualTo("down");
		}
	}

}
