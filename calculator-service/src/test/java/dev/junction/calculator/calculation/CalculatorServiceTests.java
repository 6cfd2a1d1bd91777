package dev.junction.calculator.calculation;

import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.junction.calculator.ComputeCalls;
import dev.junction.calculator.ComputeCalls.Collector;
import dev.junction.calculator.v1.BinaryOperation;
import dev.junction.calculator.v1.CalculatorGrpc;
import dev.junction.calculator.v1.ComputeRequest;
import dev.junction.calculator.v1.ComputeResponse;
import dev.junction.calculator.v1.Operator;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.stub.StreamObserver;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class CalculatorServiceTests {

	private Server server;

	private ManagedChannel channel;

	private CalculatorGrpc.CalculatorBlockingStub calculator;

	@BeforeEach
	void startServer() throws Exception {
		String name = InProcessServerBuilder.generateName();
		this.server = InProcessServerBuilder.forName(name)
			.directExecutor()
			.addService(new CalculatorService())
			.build()
			.start();
		this.channel = InProcessChannelBuilder.forName(name).directExecutor().build();
		this.calculator = CalculatorGrpc.newBlockingStub(this.channel);
	}

	@AfterEach
	void stopServer() throws InterruptedException {
		this.channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
		this.server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
	}

	@Test
	void answersEachUnaryOperation() {
		assertThat(this.calculator.add(op(5, 3)).getResult()).isEqualTo(8);
		assertThat(this.calculator.subtract(op(5, 3)).getResult()).isEqualTo(2);
		assertThat(this.calculator.multiply(op(5, 3)).getResult()).isEqualTo(15);
		assertThat(this.calculator.divide(op(5, 2)).getResult()).isEqualTo(2.5);
	}

	@Test
	void rejectsDivisionByZeroWithInvalidArgument() {
		assertThatExceptionOfType(StatusRuntimeException.class).isThrownBy(() -> this.calculator.divide(op(1, 0)))
			.satisfies((ex) -> {
				assertThat(ex.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
				assertThat(ex.getStatus().getDescription()).isEqualTo("division by zero: b must not be 0");
			});
	}

	@Test
	void rejectsNanOperandWithInvalidArgument() {
		assertThatExceptionOfType(StatusRuntimeException.class).isThrownBy(() -> this.calculator.add(op(Double.NaN, 1)))
			.satisfies((ex) -> assertThat(ex.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT));
	}

	@Test
	void reportsOverflowWithOutOfRange() {
		assertThatExceptionOfType(StatusRuntimeException.class)
			.isThrownBy(() -> this.calculator.multiply(op(1e300, 1e300)))
			.satisfies((ex) -> assertThat(ex.getStatus().getCode()).isEqualTo(Status.Code.OUT_OF_RANGE));
	}

	@Test
	void computeAnswersInOrderAndGoesOnAfterABadOperation() throws InterruptedException {
		Collector collector = new Collector();
		StreamObserver<ComputeRequest> requests = CalculatorGrpc.newStub(this.channel).compute(collector);
		requests.onNext(ComputeCalls.request("first", Operator.OPERATOR_ADD, 1, 2));
		requests.onNext(ComputeCalls.request("bad", Operator.OPERATOR_DIVIDE, 1, 0));
		requests.onNext(ComputeCalls.request("unspecified", Operator.OPERATOR_UNSPECIFIED, 1, 0));
		requests.onNext(ComputeCalls.request("last", Operator.OPERATOR_MULTIPLY, 4, 2.5));
		requests.onCompleted();
		List<ComputeResponse> responses = collector.await();
		assertThat(responses).extracting(ComputeResponse::getId).containsExactly("first", "bad", "unspecified", "last");
		assertThat(responses.get(0).getResult()).isEqualTo(3);
		assertThat(responses.get(1).getError().getStatus()).isEqualTo("INVALID_ARGUMENT");
		assertThat(responses.get(1).getError().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT.value());
		assertThat(responses.get(1).getError().getMessage()).contains("division by zero");
		assertThat(responses.get(2).getError().getMessage()).isEqualTo("operator is required");
		assertThat(responses.get(3).getResult()).isEqualTo(10);
	}

	@Test
	void computeAnswersEveryOperationOfALongStream() throws InterruptedException {
		Collector collector = new Collector();
		StreamObserver<ComputeRequest> requests = CalculatorGrpc.newStub(this.channel).compute(collector);
		int count = 10_000;
		for (int i = 0; i < count; i++) {
			requests.onNext(ComputeCalls.request(Integer.toString(i), Operator.OPERATOR_ADD, i, 1));
		}
		requests.onCompleted();
		List<ComputeResponse> responses = collector.await();
		assertThat(responses).hasSize(count);
		for (int i = 0; i < count; i++) {
			assertThat(responses.get(i).getId()).isEqualTo(Integer.toString(i));
			assertThat(responses.get(i).getResult()).isEqualTo(i + 1);
		}
	}

	private static BinaryOperation op(double a, double b) {
		return BinaryOperation.newBuilder().setA(a).setB(b).build();
	}

}
