package dev.junction.calculator.server;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import dev.junction.calculator.RunningCalculator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The HTTP (Actuator) port cannot be held by a request whose body stops arriving: once
 * answered, the connection is closed after {@code server.netty.idle-timeout} without
 * further bytes.
 */
@ExtendWith(OutputCaptureExtension.class)
class HttpIdleTimeoutIntegrationTests {

	@Test
	void closesAConnectionWhoseBodyStopsArriving(CapturedOutput output) throws Exception {
		try (RunningCalculator server = RunningCalculator.start("server.netty.idle-timeout=1s")) {
			long start = System.nanoTime();
			String answer = sendUnfinishedBody(server.httpPort());
			long elapsedMillis = (System.nanoTime() - start) / 1_000_000;
			assertThat(elapsedMillis).isBetween(900L, 8_000L);
			assertThat(answer).doesNotContain(" 500 ");
			HttpResponse<String> health = HttpClient.newHttpClient()
				.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.httpPort() + "/actuator/health"))
					.build(), HttpResponse.BodyHandlers.ofString());
			assertThat(health.statusCode()).isEqualTo(200);
			assertThat(output.getAll()).doesNotContainPattern("\\bERROR\\b");
		}
	}

	@Test
	void answersAPathThatClimbsOutOfTheRootWith404AndNoWarning(CapturedOutput output) throws Exception {
		try (RunningCalculator server = RunningCalculator.start()) {
			HttpResponse<String> response = HttpClient.newHttpClient()
				.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.httpPort() + "/%2e%2e/admin"))
					.build(), HttpResponse.BodyHandlers.ofString());
			assertThat(response.statusCode()).isEqualTo(404);
			assertThat(output.getAll()).doesNotContain("Path contains");
		}
	}

	@Test
	void closesQuietConnectionsAfterThirtySecondsByDefault() throws Exception {
		try (RunningCalculator server = RunningCalculator.start()) {
			assertThat(server.context().getEnvironment().getProperty("server.netty.idle-timeout", Duration.class))
				.isEqualTo(Duration.ofSeconds(30));
		}
	}

	/**
	 * Headers announcing 100 bytes, 8 of them, then waits for the server to close; what
	 * it answered.
	 */
	private static String sendUnfinishedBody(int port) throws IOException {
		try (Socket socket = new Socket("127.0.0.1", port)) {
			socket.setSoTimeout(10_000);
			socket.getOutputStream()
				.write(("POST /actuator/health HTTP/1.1\r\nHost: calculator\r\nContent-Type: application/json\r\n"
						+ "Content-Length: 100\r\n\r\n{\"a\":12}")
					.getBytes(StandardCharsets.US_ASCII));
			InputStream in = socket.getInputStream();
			ByteArrayOutputStream answer = new ByteArrayOutputStream();
			byte[] buffer = new byte[4096];
			try {
				for (int read = in.read(buffer); read >= 0; read = in.read(buffer)) {
					answer.write(buffer, 0, read);
				}
			}
			catch (SocketTimeoutException ex) {
				throw new AssertionError("the connection was still open after 10 s; answered: " + answer);
			}
			catch (IOException ex) {
				// reset: closed too
			}
			return answer.toString(StandardCharsets.ISO_8859_1);
		}
	}

}
