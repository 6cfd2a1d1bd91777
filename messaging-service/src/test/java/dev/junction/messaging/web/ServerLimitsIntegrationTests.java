package dev.junction.messaging.web;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

import dev.junction.messaging.support.IntegrationTestSupport;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The shared server's limits as messaging-service answers them, in problem+json: a body
 * that stops arriving ({@code junction.messaging.http.read-timeout}), headers too large.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "junction.messaging.admin-key=" + IntegrationTestSupport.ADMIN_KEY,
				"junction.messaging.http.read-timeout=500ms", "logging.level.io.zonky.test=warn" })
class ServerLimitsIntegrationTests extends IntegrationTestSupport {

	@Test
	void answersABodyThatStopsArrivingWith408AsAProblem() throws IOException {
		String response = exchange("POST /api/v2/instances HTTP/1.1\r\nHost: localhost\r\nx-api-key: " + ADMIN_KEY
				+ "\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"name\"");
		assertThat(response).startsWith("HTTP/1.1 408 ")
			.containsIgnoringCase("content-type: application/problem+json")
			.containsIgnoringCase("x-request-id: ")
			.contains("\"type\":\"https://junction.dev/problems/request-timeout\"", "\"status\":408");
	}

	@Test
	void answersHeadersTooLargeWith431AsAProblem() throws IOException {
		String response = exchange(
				"GET /api/v2/instances HTTP/1.1\r\nHost: localhost\r\nX-Big: " + "x".repeat(20_000) + "\r\n\r\n");
		assertThat(response).startsWith("HTTP/1.1 431 ")
			.containsIgnoringCase("content-type: application/problem+json")
			.containsPattern("(?i)x-request-id: [0-9a-f]{32}")
			.contains("\"status\":431");
	}

	/** Sends raw bytes and reads one response with a Content-Length. */
	private String exchange(String request) throws IOException {
		try (Socket socket = new Socket("127.0.0.1", this.port)) {
			socket.setSoTimeout(10_000);
			socket.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
			InputStream in = socket.getInputStream();
			ByteArrayOutputStream head = new ByteArrayOutputStream();
			while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
				int b = in.read();
				if (b < 0) {
					throw new IOException("closed after: " + head);
				}
				head.write(b);
			}
			String headers = head.toString(StandardCharsets.ISO_8859_1);
			int length = 0;
			for (String line : headers.split("\r\n")) {
				if (line.toLowerCase().startsWith("content-length:")) {
					length = Integer.parseInt(line.substring(15).strip());
				}
			}
			return headers + new String(in.readNBytes(length), StandardCharsets.UTF_8);
		}
	}

}
