package dev.junction.messaging.support;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.List;

import static org.awaitility.Awaitility.await;

/**
 * A real {@code redis-server} (Debian's package) on a loopback port chosen once, which a
 * test can stop and start again on the same port.
 */
public final class RedisServer implements AutoCloseable {

	private final int port;

	private Process process;

	private RedisServer(int port) {
		this.port = port;
	}

	/** Whether the redis-server binary is on the PATH. */
	public static boolean installed() {
		return List.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
			.stream()
			.anyMatch((dir) -> new File(dir, "redis-server").canExecute());
	}

	/** A server on a free port, not started yet. */
	public static RedisServer onFreePort() {
		try (ServerSocket socket = new ServerSocket(0)) {
			return new RedisServer(socket.getLocalPort());
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/** Starts the server and waits until it accepts connections. */
	public synchronized RedisServer start() {
		try {
			this.process = new ProcessBuilder("redis-server", "--port", Integer.toString(this.port), "--bind",
					"127.0.0.1", "--save", "", "--appendonly", "no")
				.redirectErrorStream(true)
				.redirectOutput(ProcessBuilder.Redirect.DISCARD)
				.start();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		await().atMost(Duration.ofSeconds(20)).ignoreExceptions().until(() -> {
			try (Socket socket = new Socket()) {
				socket.connect(new InetSocketAddress("127.0.0.1", this.port), 200);
				return true;
			}
		});
		return this;
	}

	/** Stops the server and waits until it is gone. */
	public synchronized void stop() {
		if (this.process != null) {
			this.process.destroy();
			await().atMost(Duration.ofSeconds(20)).until(() -> !this.process.isAlive());
			this.process = null;
		}
	}

	public String url() {
		return "redis://127.0.0.1:" + this.port;
	}

	@Override
	public void close() {
		stop();
	}

}
