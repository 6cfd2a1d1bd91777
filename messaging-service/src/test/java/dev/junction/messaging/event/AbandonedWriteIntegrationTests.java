package dev.junction.messaging.event;

import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import dev.junction.messaging.support.IntegrationTestSupport;
import dev.junction.messaging.support.LogCapture;
import dev.junction.messaging.support.TestDatabase;
import io.r2dbc.spi.Connection;
import io.r2dbc.spi.ConnectionFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.beans.factory.annotation.Autowired;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Clients that go away while their message waits for its turn to write its event (on
 * PostgreSQL every event write waits for one lock, {@link EventRepository#takeTurn}) cost
 * the service nothing: the row the lock's query answers with once the turn comes is
 * released, and every connection goes back to the pool.
 */
class AbandonedWriteIntegrationTests extends IntegrationTestSupport {

	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	@RegisterExtension
	final LogCapture logs = new LogCapture();

	@Autowired
	ConnectionFactory connections;

	@Test
	void releasesTheLockRowOfWritesWhoseClientsLeftWhileTheyWaited() throws Exception {
		assumeTrue(TestDatabase.postgres(), "the lock and rows in Netty buffers are PostgreSQL's");
		UUID chat = createChat(createInstance());
		Connection holder = Mono.from(this.connections.create()).block(TIMEOUT);
		List<Socket> clients = new ArrayList<>();
		try {
			Mono.from(holder.beginTransaction()).block(TIMEOUT);
			Flux.from(holder.createStatement("SELECT pg_advisory_xact_lock(" + EventRepository.ORDER_LOCK + ")")
				.execute()).flatMap((result) -> result.map((row) -> row)).blockLast(TIMEOUT);
			for (int i = 0; i < 20; i++) {
				clients.add(startSending(chat));
			}
			// Each send has its message written and waits for the turn to write its
			// event.
			Thread.sleep(1000);
			for (Socket client : clients) {
				client.setSoLinger(true, 0);
				client.close();
			}
			Thread.sleep(300);
		}
		finally {
			Mono.from(holder.commitTransaction()).block(TIMEOUT);
			Mono.from(holder.close()).block(TIMEOUT);
		}
		// The turns come one after the other once the lock is free; leaks are reported
		// once
		// their buffers are collected, at a later allocation.
		for (int round = 0; round < 3; round++) {
			System.gc();
			Thread.sleep(200);
			assertThat(send(chat, "after round " + round).get("chatId").asString()).isEqualTo(chat.toString());
		}
		assertThat(get("/chats/" + chat + "/messages?limit=100").get("items"))
			.allSatisfy((message) -> assertThat(message.get("text").asString()).startsWith("after round "));
		assertThat(this.logs.errors())
			.noneMatch((error) -> error.contains("LEAK") && error.contains("io.r2dbc.postgresql"));
	}

	/** Sends a message in a request of its own, and leaves the connection open. */
	private Socket startSending(UUID chat) throws IOException {
		byte[] body = ("{\"chatId\":\"" + chat + "\",\"text\":\"left while waiting\"}")
			.getBytes(StandardCharsets.UTF_8);
		Socket socket = new Socket("127.0.0.1", this.port);
		socket.getOutputStream()
			.write(("POST /api/v2/messages HTTP/1.1\r\nHost: localhost\r\nx-api-key: " + ADMIN_KEY
					+ "\r\nContent-Type: application/json\r\nContent-Length: " + body.length + "\r\n\r\n")
				.getBytes(StandardCharsets.US_ASCII));
		socket.getOutputStream().write(body);
		socket.getOutputStream().flush();
		return socket;
	}

}
