package dev.junction.gateway.support;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A real {@code redis-server} (Debian's package) on a free loopback port, for one test
 * class; it can be stopped and started again on the same port.
 */
public final class RedisServer implements AutoCloseable {

	private final int port;

	private final String password;

	private Process process;

	private RedisServer(int port, String password) {
		this.port = port;
		this.password = password;
	}

	/** Whether the redis-server binary is on the PATH. */
	public static boolean available() {
		for (String dir : System.getenv("PATH").split(File.pathSeparator)) {
			if (new File(dir, "redis-server").canExecute()) {
				return true;
			}
		}
		return false;
	}

	public static RedisServer start() throws IOException, InterruptedException {
		return start(null);
	}

	/** A server that requires {@code password} (none when null). */
	public static RedisServer start(String password) throws IOException, InterruptedException {
		RedisServer server = new RedisServer(freePort(), password);
		server.restart();
		return server;
	}

	/** A server on a free port, not started yet: {@link #restart()} starts it. */
	public static RedisServer notStarted() {
		return new RedisServer(freePort(), null);
	}

	/** Starts the server (again) on its port and waits until it accepts connections. */
	public synchronized void restart() throws IOException, InterruptedException {
		List<String> command = new ArrayList<>(List.of("redis-server", "--port", Integer.toString(this.port), "--bind",
				"127.0.0.1", "--save", "", "--appendonly", "no"));
		if (this.password != null) {
			command.addAll(List.of("--requirepass", this.password));
		}
		this.process = new ProcessBuilder(command).redirectErrorStream(true)
			.redirectOutput(ProcessBuilder.Redirect.DISCARD)
			.start();
		long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
		while (System.nanoTime() < deadline) {
			try (Socket socket = new Socket("127.0.0.1", this.port)) {
				return;
			}
			catch (IOException notYet) {
				Thread.sleep(50);
			}
		}
		this.process.destroyForcibly();
		throw new IllegalStateException("redis-server did not start on port " + this.port);
	}

	/** Stops the server and waits until it is gone. */
	public synchronized void stop() throws InterruptedException {
		if (this.process != null) {
			this.process.destroy();
			this.process.waitFor();
			this.process = null;
		}
	}

	/** The server's URL, with its password when it has one. */
	public String url() {
		return "redis://" + ((this.password != null) ? ":" + this.password + "@" : "") + "127.0.0.1:" + this.port;
	}

	@Override
	public void close() throws InterruptedException {
		stop();
	}

	private static int freePort() {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
