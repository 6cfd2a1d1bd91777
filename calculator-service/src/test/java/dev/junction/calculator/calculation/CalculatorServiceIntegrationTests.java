package dev.junction.calculator.calculation;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;

import dev.junction.calculator.ComputeCalls;
import dev.junction.calculator.RunningCalculator;
import dev.junction.calculator.v1.BinaryOperation;
import dev.junction.calculator.v1.CalculatorGrpc;
import dev.junction.calculator.v1.ComputeResponse;
import dev.junction.calculator.v1.Operator;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.StreamObserver;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

class CalculatorServiceIntegrationTests {

	private static RunningCalculator server;

	private static CalculatorGrpc.CalculatorBlockingStub calculator;

	private static ManagedChannel channel;

	@BeforeAll
	static void start() {
		server = RunningCalculator.start();
		channel = server.plaintextChannel();
		calculator = CalculatorGrpc.newBlockingStub(channel);
	}

	@AfterAll
	static void stop() throws InterruptedException {
		server.close();
	}

	@Test
	void answersEveryOperationOverARealPort() {
		assertThat(calculator.add(op(5, 3)).getResult()).isEqualTo(8);
		assertThat(calculator.subtract(op(5, 3)).getResult()).isEqualTo(2);
		assertThat(calculator.multiply(op(-4, 2.5)).getResult()).isEqualTo(-10);
		assertThat(calculator.divide(op(7, 2)).getResult()).isEqualTo(3.5);
	}

	@Test
	void returnsInvalidArgumentForDivisionByZero() {
		assertStatus(() -> calculator.divide(op(1, 0)), Status.Code.INVALID_ARGUMENT, "division by zero");
	}

	@Test
	void returnsInvalidArgumentForNonFiniteOperands() {
		assertStatus(() -> calculator.add(op(Double.NaN, 1)), Status.Code.INVALID_ARGUMENT,
				"operand a must be a finite number");
		assertStatus(() -> calculator.subtract(op(1, Double.POSITIVE_INFINITY)), Status.Code.INVALID_ARGUMENT,
				"operand b must be a finite number");
	}

	@Test
	void returnsOutOfRangeWhenFiniteOperandsOverflow() {
		assertStatus(() -> calculator.multiply(op(Double.MAX_VALUE, 2)), Status.Code.OUT_OF_RANGE, "overflows");
		assertStatus(() -> calculator.add(op(Double.MAX_VALUE, Double.MAX_VALUE)), Status.Code.OUT_OF_RANGE,
				"overflows");
	}

	@Test
	void computeStreamSurvivesABadOperationInTheMiddle() throws InterruptedException {
		ComputeCalls.Collector collector = new ComputeCalls.Collector();
		StreamObserver<dev.junction.calculator.v1.ComputeRequest> requests = CalculatorGrpc.newStub(channel)
			.compute(collector);
		requests.onNext(ComputeCalls.request("a", Operator.OPERATOR_SUBTRACT, 10, 4));
		requests.onNext(ComputeCalls.request("b", Operator.OPERATOR_DIVIDE, 10, 0));
		requests.onNext(ComputeCalls.request("c", Operator.OPERATOR_MULTIPLY, 1e300, 1e300));
		requests.onNext(ComputeCalls.request("d", Operator.OPERATOR_DIVIDE, 10, 4));
		requests.onCompleted();
		List<ComputeResponse> responses = collector.await();
		assertThat(responses).extracting(ComputeResponse::getId).containsExactly("a", "b", "c", "d");
		assertThat(responses.get(0).getResult()).isEqualTo(6);
		assertThat(responses.get(1).getError().getStatus()).isEqualTo("INVALID_ARGUMENT");
		assertThat(responses.get(2).getError().getStatus()).isEqualTo("OUT_OF_RANGE");
		assertThat(responses.get(3).getResult()).isEqualTo(2.5);
	}

	@Test
	void exposesPerMethodGrpcMetricsWithSloBucketsInPrometheus() throws Exception {
		calculator.add(op(1, 1));
		assertThatExceptionOfType(StatusRuntimeException.class).isThrownBy(() -> calculator.divide(op(1, 0)));
		// The server's timer stops once the call is closed, so the client can see the
		// answer a moment earlier.
		await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
			HttpResponse<String> response = HttpClient.newHttpClient()
				.send(HttpRequest
					.newBuilder(URI.create("http://127.0.0.1:" + server.httpPort() + "/actuator/prometheus"))
					.build(), HttpResponse.BodyHandlers.ofString());
			assertThat(response.statusCode()).isEqualTo(200);
			assertThat(response.body()).containsPattern(
					"grpc_server_seconds_count\\{[^}]*grpc_status_code=\"OK\"[^}]*rpc_method=\"Add\"[^}]*rpc_service=\"calculator.v1.Calculator\"[^}]*} [1-9]")
				.containsPattern(
						"grpc_server_seconds_count\\{[^}]*grpc_status_code=\"INVALID_ARGUMENT\"[^}]*rpc_method=\"Divide\"[^}]*} [1-9]")
				.containsPattern("grpc_server_seconds_bucket\\{[^}]*rpc_method=\"Add\"[^}]*le=\"1.0E-4\"} [0-9]")
				.containsPattern("grpc_server_seconds_bucket\\{[^}]*rpc_method=\"Add\"[^}]*le=\"0.0025\"} [0-9]")
				.containsPattern("grpc_server_seconds_bucket\\{[^}]*rpc_method=\"Add\"[^}]*le=\"1.0\"} [1-9]")
				.containsPattern("grpc_server_seconds_bucket\\{[^}]*rpc_method=\"Add\"[^}]*le=\"\\+Inf\"} [1-9]")
				.doesNotContainPattern("grpc_server_seconds_bucket\\{[^}]*le=\"1.0E-5\"}");
		});
	}

	@Test
	void reportsHttpHealthUp() throws Exception {
		HttpResponse<String> response = HttpClient.newHttpClient()
			.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.httpPort() + "/actuator/health"))
				.build(), HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.body()).contains("\"status\":\"UP\"");
	}

	static BinaryOperation op(double a, double b) {
		return BinaryOperation.newBuilder().setA(a).setB(b).build();
	}

	static void assertStatus(Runnable call, Status.Code code, String message) {
		assertThatExceptionOfType(StatusRuntimeException.class).isThrownBy(call::run).satisfies((ex) -> {
			assertThat(ex.getStatus().getCode()).isEqualTo(code);
			assertThat(ex.getStatus().getDescription()).contains(message);
		});
	}

}
