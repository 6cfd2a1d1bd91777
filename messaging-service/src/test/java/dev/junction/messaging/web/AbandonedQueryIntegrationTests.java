package dev.junction.messaging.web;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.UUID;

import dev.junction.messaging.support.IntegrationTestSupport;
import dev.junction.messaging.support.LogCapture;
import dev.junction.messaging.support.TestDatabase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Clients that go away while the rows of their page are on their way from PostgreSQL cost
 * the service nothing: every row the database sent is released, with Netty's leak
 * detector watching every buffer ({@link dev.junction.testsupport.NettyLeaks} sets it so
 * for every test).
 */
class AbandonedQueryIntegrationTests extends IntegrationTestSupport {

	@RegisterExtension
	final LogCapture logs = new LogCapture();

	@Test
	void releasesTheRowsOfQueriesWhoseClientsLeft() throws Exception {
		assumeTrue(TestDatabase.postgres(), "rows in Netty buffers come from PostgreSQL's driver");
		UUID chat = createChat(createInstance());
		for (int i = 0; i < 120; i++) {
			send(chat, "message " + i + " with a little text so that each row takes some bytes");
		}
		for (int i = 0; i < 200; i++) {
			leaveDuring("GET /api/v2/events?limit=100 HTTP/1.1");
			leaveDuring("GET /api/v2/messages?limit=100 HTTP/1.1");
		}
		// Leaks are reported once their buffers are collected, at a later allocation.
		for (int round = 0; round < 3; round++) {
			System.gc();
			Thread.sleep(200);
			assertThat(get("/events?limit=100").get("items").size()).isEqualTo(100);
		}
		assertThat(this.logs.errors())
			.noneMatch((error) -> error.contains("LEAK") && error.contains("io.r2dbc.postgresql"));
	}

	@Test
	void releasesTheRowOfSingleRecordReadsWhoseClientsLeft() throws Exception {
		assumeTrue(TestDatabase.postgres(), "rows in Netty buffers come from PostgreSQL's driver");
		UUID instance = createInstance();
		UUID chat = createChat(instance);
		String message = send(chat, "one message").get("id").asText();
		for (int i = 0; i < 300; i++) {
			leaveDuring("GET /api/v2/messages/" + message + " HTTP/1.1");
			leaveDuring("GET /api/v2/chats/" + chat + " HTTP/1.1");
			leaveDuring("GET /api/v2/instances/" + instance + " HTTP/1.1");
		}
		for (int round = 0; round < 3; round++) {
			System.gc();
			Thread.sleep(200);
			assertThat(get("/messages/" + message).get("id").asText()).isEqualTo(message);
		}
		assertThat(this.logs.errors())
			.noneMatch((error) -> error.contains("LEAK") && error.contains("io.r2dbc.postgresql"));
	}

	/**
	 * Sends a request, waits for the first byte of the answer or not, and resets the
	 * connection.
	 */
	private void leaveDuring(String requestLine) throws IOException {
		try (Socket socket = new Socket("127.0.0.1", this.port)) {
			socket.getOutputStream()
				.write((requestLine + "\r\nHost: localhost\r\nx-api-key: " + ADMIN_KEY + "\r\n\r\n")
					.getBytes(StandardCharsets.US_ASCII));
			socket.setSoLinger(true, 0);
			if (Math.random() < 0.3) {
				InputStream in = socket.getInputStream();
				in.read();
			}
		}
	}

}
