package dev.junction.calculator.server;

import java.util.concurrent.atomic.AtomicReference;

import dev.junction.calculator.RunningCalculator;
import dev.junction.calculator.v1.BinaryOperation;
import dev.junction.calculator.v1.CalculatorGrpc;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.MetadataUtils;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.logging.LogLevel;
import org.springframework.boot.logging.LoggingSystem;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * {@code x-request-id} metadata: echoed in the response headers and written in the call's
 * log line.
 */
@ExtendWith(OutputCaptureExtension.class)
class RequestIdIntegrationTests {

	private static RunningCalculator server;

	private static ManagedChannel channel;

	@BeforeAll
	static void start() {
		server = RunningCalculator.start();
		channel = server.plaintextChannel();
		LoggingSystem.get(RequestIdIntegrationTests.class.getClassLoader())
			.setLogLevel(RequestIdInterceptor.class.getName(), LogLevel.DEBUG);
	}

	@AfterAll
	static void stop() throws InterruptedException {
		LoggingSystem.get(RequestIdIntegrationTests.class.getClassLoader())
			.setLogLevel(RequestIdInterceptor.class.getName(), null);
		server.close();
	}

	@Test
	void echoesTheRequestIdAndLogsIt(CapturedOutput output) {
		AtomicReference<Metadata> headers = new AtomicReference<>();
		AtomicReference<Metadata> trailers = new AtomicReference<>();
		calculator("calc-req-1", headers, trailers).add(op(1, 2));
		assertThat(headers.get().get(RequestIdInterceptor.KEY)).isEqualTo("calc-req-1");
		assertThat(output.getOut())
			.containsPattern("\\[request.id=calc-req-1] \\S*RequestIdInterceptor\\s*: calculator.v1.Calculator/Add OK");
	}

	@Test
	void echoesTheRequestIdOfAFailedCallInItsTrailers() {
		AtomicReference<Metadata> headers = new AtomicReference<>();
		AtomicReference<Metadata> trailers = new AtomicReference<>();
		assertThatExceptionOfType(StatusRuntimeException.class)
			.isThrownBy(() -> calculator("calc-req-2", headers, trailers).divide(op(1, 0)));
		Metadata echoed = (headers.get() != null && headers.get().containsKey(RequestIdInterceptor.KEY)) ? headers.get()
				: trailers.get();
		assertThat(echoed.get(RequestIdInterceptor.KEY)).isEqualTo("calc-req-2");
	}

	@Test
	void ignoresAnUnacceptableRequestId() {
		AtomicReference<Metadata> headers = new AtomicReference<>();
		AtomicReference<Metadata> trailers = new AtomicReference<>();
		calculator("x".repeat(65), headers, trailers).add(op(1, 2));
		assertThat(headers.get().containsKey(RequestIdInterceptor.KEY)).isFalse();
		calculator("has space", headers, trailers).add(op(1, 2));
		assertThat(headers.get().containsKey(RequestIdInterceptor.KEY)).isFalse();
	}

	private static CalculatorGrpc.CalculatorBlockingStub calculator(String requestId, AtomicReference<Metadata> headers,
			AtomicReference<Metadata> trailers) {
		Metadata sent = new Metadata();
		sent.put(RequestIdInterceptor.KEY, requestId);
		return CalculatorGrpc.newBlockingStub(channel)
			.withInterceptors(MetadataUtils.newAttachHeadersInterceptor(sent),
					MetadataUtils.newCaptureMetadataInterceptor(headers, trailers));
	}

	private static BinaryOperation op(double a, double b) {
		return BinaryOperation.newBuilder().setA(a).setB(b).build();
	}

}
