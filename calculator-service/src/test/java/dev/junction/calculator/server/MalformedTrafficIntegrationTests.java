package dev.junction.calculator.server;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import dev.junction.calculator.RunningCalculator;
import dev.junction.calculator.v1.BinaryOperation;
import dev.junction.calculator.v1.CalculatorGrpc;
import dev.junction.calculator.v1.ComputeRequest;
import dev.junction.calculator.v1.ComputeResponse;
import dev.junction.calculator.v1.Operator;
import io.grpc.CallOptions;
import io.grpc.ClientCall;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.health.v1.HealthGrpc;
import io.grpc.stub.ClientCalls;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Whatever a client sends to the gRPC port, it costs nobody else anything and never makes
 * the server log at ERROR: ERROR is for the operator's faults. Sent over raw sockets to a
 * real port.
 */
@ExtendWith(OutputCaptureExtension.class)
class MalformedTrafficIntegrationTests {

	private static final byte[] PREFACE = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

	/** An empty SETTINGS frame. */
	private static final byte[] SETTINGS = HexFormat.of().parseHex("000000040000000000");

	private static RunningCalculator server;

	@BeforeAll
	static void start() {
		server = RunningCalculator.start();
	}

	@AfterAll
	static void stop() throws InterruptedException {
		server.close();
	}

	@Test
	void closesAnHttp1RequestWithoutAnErrorLog(CapturedOutput output) throws IOException {
		assertClosedAfter(ascii("GET / HTTP/1.1\r\nHost: calculator\r\n\r\n"));
		assertClosedAfter(ascii("POST /calculator.v1.Calculator/Add HTTP/1.1\r\nHost: calculator\r\n"
				+ "Content-Type: application/grpc\r\nContent-Length: 100\r\n\r\n12345678"));
		assertServingWithoutErrorLog(output);
	}

	@Test
	void closesBytesThatAreNotHttp2WithoutAnErrorLog(CapturedOutput output) throws IOException {
		assertClosedAfter(HexFormat.of().parseHex("16030100c4010000c00303"));
		assertClosedAfter(ascii("\u0000\u0001garbage\r\n\r\n".repeat(8)));
		assertServingWithoutErrorLog(output);
	}

	@Test
	void closesGarbageHttp2FramesWithoutAnErrorLog(CapturedOutput output) throws IOException {
		// A frame announcing more than the largest frame size.
		assertClosedAfter(concat(PREFACE, SETTINGS, HexFormat.of().parseHex("ffffff0100000000010000")));
		// HEADERS whose header block is not HPACK.
		assertClosedAfter(concat(PREFACE, SETTINGS, HexFormat.of().parseHex("0000080105000000017f7f7f7f7f7f7f7f")));
		// DATA on a stream that was never opened.
		assertClosedAfter(concat(PREFACE, SETTINGS, HexFormat.of().parseHex("000005000100000003000000000a")));
		// SETTINGS with a length that is not a multiple of six.
		assertClosedAfter(concat(PREFACE, HexFormat.of().parseHex("0000050400000000000102030405")));
		assertServingWithoutErrorLog(output);
	}

	@Test
	void closesAConnectionCutInsideAFrameWithoutAnErrorLog(CapturedOutput output) throws IOException {
		try (Socket socket = connect()) {
			socket.getOutputStream().write(concat(PREFACE, SETTINGS, HexFormat.of().parseHex("0000400104000000")));
			socket.setSoLinger(true, 0);
		}
		assertServingWithoutErrorLog(output);
	}

	@Test
	void refusesAGarbageMessageWithoutAnErrorLog(CapturedOutput output) {
		assertThatExceptionOfType(StatusRuntimeException.class)
			.isThrownBy(() -> callWithBytes(CalculatorGrpc.getAddMethod().getFullMethodName(),
					HexFormat.of().parseHex("ffffffffffffffffffff")))
			.satisfies((ex) -> {
				assertThat(ex.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
				assertThat(ex.getStatus().getDescription())
					.isEqualTo("The request message is not a valid calculator.v1.BinaryOperation "
							+ "(protobuf binary encoding expected)");
			});
		assertThatExceptionOfType(StatusRuntimeException.class).isThrownBy(
				() -> callWithBytes(HealthGrpc.getCheckMethod().getFullMethodName(), HexFormat.of().parseHex("0affff")))
			.satisfies((ex) -> assertThat(ex.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT));
		assertServingWithoutErrorLog(output);
	}

	@Test
	void endsAComputeStreamAtAGarbageMessageWithoutAnErrorLog(CapturedOutput output) throws Exception {
		MethodDescriptor<byte[], byte[]> compute = rawMethod(CalculatorGrpc.getComputeMethod().getFullMethodName(),
				MethodDescriptor.MethodType.BIDI_STREAMING);
		ClientCall<byte[], byte[]> call = server.plaintextChannel().newCall(compute, CallOptions.DEFAULT);
		CompletableFuture<Status> closed = new CompletableFuture<>();
		List<byte[]> answers = new CopyOnWriteArrayList<>();
		call.start(new ClientCall.Listener<>() {
			@Override
			public void onMessage(byte[] message) {
				answers.add(message);
			}

			@Override
			public void onClose(Status status, Metadata trailers) {
				closed.complete(status);
			}
		}, new Metadata());
		call.request(10);
		call.sendMessage(ComputeRequest.newBuilder()
			.setId("1")
			.setOperator(Operator.OPERATOR_ADD)
			.setA(1)
			.setB(2)
			.build()
			.toByteArray());
		call.sendMessage(HexFormat.of().parseHex("ffffffffffffffffffff"));
		Status status = closed.get(10, TimeUnit.SECONDS);
		assertThat(status.getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
		assertThat(answers).hasSize(1);
		assertThat(ComputeResponse.parseFrom(answers.get(0)).getResult()).isEqualTo(3);
		assertServingWithoutErrorLog(output);
	}

	private static byte[] callWithBytes(String fullMethodName, byte[] request) {
		return ClientCalls.blockingUnaryCall(server.plaintextChannel(),
				rawMethod(fullMethodName, MethodDescriptor.MethodType.UNARY), CallOptions.DEFAULT, request);
	}

	private static MethodDescriptor<byte[], byte[]> rawMethod(String fullMethodName, MethodDescriptor.MethodType type) {
		return MethodDescriptor.<byte[], byte[]>newBuilder()
			.setType(type)
			.setFullMethodName(fullMethodName)
			.setRequestMarshaller(new RawBytes())
			.setResponseMarshaller(new RawBytes())
			.build();
	}

	/** Writes the bytes and expects the server to close the connection within seconds. */
	private static void assertClosedAfter(byte[] bytes) throws IOException {
		try (Socket socket = connect()) {
			OutputStream out = socket.getOutputStream();
			out.write(bytes);
			out.flush();
			InputStream in = socket.getInputStream();
			byte[] buffer = new byte[4096];
			try {
				while (in.read(buffer) >= 0) {
					// the server's answer (a GOAWAY or an HTTP/1.1 error), until it
					// closes
				}
			}
			catch (SocketTimeoutException ex) {
				throw new AssertionError(
						"the server kept the connection open after " + HexFormat.of().formatHex(bytes));
			}
			catch (IOException ex) {
				// reset by the server: closed too
			}
		}
	}

	private static void assertServingWithoutErrorLog(CapturedOutput output) {
		double sum = CalculatorGrpc.newBlockingStub(server.plaintextChannel())
			.add(BinaryOperation.newBuilder().setA(2).setB(3).build())
			.getResult();
		assertThat(sum).isEqualTo(5);
		assertThat(output.getAll()).doesNotContainPattern("\\bERROR\\b").doesNotContain("Transport failed");
	}

	private static Socket connect() throws IOException {
		Socket socket = new Socket("127.0.0.1", server.grpcPort());
		socket.setSoTimeout(5000);
		return socket;
	}

	private static byte[] ascii(String text) {
		return text.getBytes(StandardCharsets.ISO_8859_1);
	}

	private static byte[] concat(byte[]... parts) {
		ByteArrayOutputStream bytes = new ByteArrayOutputStream();
		for (byte[] part : parts) {
			bytes.writeBytes(part);
		}
		return bytes.toByteArray();
	}

	/** A marshaller that sends and receives bytes as they are. */
	private static final class RawBytes implements MethodDescriptor.Marshaller<byte[]> {

		@Override
		public InputStream stream(byte[] value) {
			return new ByteArrayInputStream(value);
		}

		@Override
		public byte[] parse(InputStream stream) {
			try {
				return stream.readAllBytes();
			}
			catch (IOException ex) {
				throw new IllegalStateException(ex);
			}
		}

	}

}
