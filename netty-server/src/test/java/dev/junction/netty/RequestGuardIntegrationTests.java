package dev.junction.netty;

import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.HttpStatus;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.ServerResponse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.web.reactive.function.server.RequestPredicates.POST;
import static org.springframework.web.reactive.function.server.RouterFunctions.route;

/**
 * The request guard in a real WebFlux server on Reactor Netty, as any application
 * importing {@link NettyServerConfiguration} gets it without declaring anything but its
 * limits. None of these client mistakes may log at ERROR.
 */
@ExtendWith(OutputCaptureExtension.class)
class RequestGuardIntegrationTests {

	@RegisterExtension
	static final RunningServer server = new RunningServer(Application.class);

	@AfterEach
	void loggedNoError(CapturedOutput output) {
		assertThat(output.getAll()).doesNotContainPattern("(?m)^\\S+\\s+ERROR\\s");
	}

	@Test
	void answersHeadersTooLargeWithProblemJsonAndARequestId() throws IOException {
		try (Socket socket = connect()) {
			RawHttp.send(socket, "GET /echo HTTP/1.1\r\nHost: localhost\r\nX-Big: " + "x".repeat(20_000) + "\r\n\r\n");
			String response = RawHttp.readResponse(socket);
			assertThat(response).startsWith("HTTP/1.1 431 ")
				.containsPattern("(?i)content-type: application/problem\\+json")
				.containsPattern("(?i)x-request-id: [0-9a-f]{32}")
				.containsPattern("(?i)connection: close")
				.contains("\"status\":431", "\"title\":\"Request Header Fields Too Large\"",
						"\"detail\":\"The request headers are too large.\"");
			assertThat(closedWithin(socket, Duration.ofSeconds(5))).isTrue();
		}
	}

	@Test
	void answersARequestLineTooLongWith414() throws IOException {
		try (Socket socket = connect()) {
			RawHttp.send(socket, "GET /echo?" + "x".repeat(10_000) + " HTTP/1.1\r\nHost: localhost\r\n\r\n");
			assertThat(RawHttp.readResponse(socket)).startsWith("HTTP/1.1 414 ").contains("\"status\":414");
		}
	}

	@Test
	void failsTheReaderOfABodyThatStopsArrivingWith408AndClosesTheConnection() throws IOException {
		try (Socket socket = connect()) {
			long start = System.nanoTime();
			RawHttp.send(socket, "POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Length: 100\r\n\r\n12345678");
			String response = RawHttp.readResponse(socket);
			assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(400));
			assertThat(response).startsWith("HTTP/1.1 408 ");
			assertThat(closedWithin(socket, Duration.ofSeconds(5))).isTrue();
		}
	}

	@Test
	void keepsReadingABodyThatArrivesSlowlyButSteadily() throws Exception {
		try (Socket socket = connect()) {
			RawHttp.send(socket, "POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Length: 8\r\n\r\n");
			for (int i = 0; i < 8; i++) {
				Thread.sleep(150);
				RawHttp.send(socket, Integer.toString(i));
			}
			assertThat(RawHttp.readResponse(socket)).startsWith("HTTP/1.1 200 ").endsWith("01234567");
		}
	}

	@Test
	void aClientStillSendingItsBodyReadsAnAnswerThatClosesTheConnection() throws IOException {
		int size = 11 * 1024 * 1024;
		try (Socket socket = connect()) {
			RawHttp.send(socket, "POST /refuse HTTP/1.1\r\nHost: localhost\r\nContent-Length: " + size + "\r\n\r\n");
			OutputStream out = socket.getOutputStream();
			byte[] chunk = new byte[64 * 1024];
			for (int sent = 0; sent < size; sent += chunk.length) {
				out.write(chunk, 0, Math.min(chunk.length, size - sent));
			}
			out.flush();
			assertThat(RawHttp.readResponse(socket)).startsWith("HTTP/1.1 413 ");
			assertThat(closedWithin(socket, Duration.ofSeconds(5))).isTrue();
		}
	}

	@Test
	void stopsDiscardingAnUnwantedBodyPastItsBound() throws IOException {
		try (Socket socket = connect()) {
			RawHttp.send(socket, "POST /refuse HTTP/1.1\r\nHost: localhost\r\nContent-Length: 100000000\r\n\r\n");
			assertThat(RawHttp.readResponse(socket)).startsWith("HTTP/1.1 413 ");
			try {
				OutputStream out = socket.getOutputStream();
				byte[] chunk = new byte[64 * 1024];
				for (int i = 0; i < 512; i++) {
					out.write(chunk);
				}
			}
			catch (IOException closed) {
				// The server stopped reading once past its bound.
			}
			assertThat(closedWithin(socket, Duration.ofSeconds(5))).isTrue();
		}
	}

	private static Socket connect() throws IOException {
		Socket socket = new Socket("127.0.0.1", server.port());
		socket.setSoTimeout(10_000);
		return socket;
	}

	private static boolean closedWithin(Socket socket, Duration wait) throws IOException {
		socket.setSoTimeout(Math.toIntExact(wait.toMillis()));
		try {
			return socket.getInputStream().read() < 0;
		}
		catch (SocketTimeoutException ex) {
			return false;
		}
		catch (IOException reset) {
			return true;
		}
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	@Import(NettyServerConfiguration.class)
	static class Application {

		@Bean
		HttpServerLimits limits() {
			return new HttpServerLimits(Duration.ofMillis(500), Duration.ofSeconds(5), 16 * 1024 * 1024);
		}

		@Bean
		RouterFunction<ServerResponse> routes() {
			return route(POST("/echo"),
					(request) -> DataBufferUtils
						.join(request.bodyToFlux(org.springframework.core.io.buffer.DataBuffer.class))
						.flatMap((body) -> {
							String text = body.toString(StandardCharsets.UTF_8);
							DataBufferUtils.release(body);
							return ServerResponse.ok().bodyValue(text);
						}))
				.andRoute(POST("/refuse"),
						(request) -> ServerResponse.status(HttpStatus.CONTENT_TOO_LARGE)
							.header("Connection", "close")
							.bodyValue("too large"));
		}

	}

}
