package dev.junction.gateway.support;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** A real {@code redis-server} (Debian's package) on a free loopback port, for one test class. */
public final class RedisServer implements AutoCloseable {

	private final Process process;

	private final int port;

	private final String password;

	private RedisServer(Process process, int port, String password) {
		this.process = process;
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
		int port;
		try (ServerSocket socket = new ServerSocket(0)) {
			port = socket.getLocalPort();
		}
		List<String> command = new ArrayList<>(List.of("redis-server", "--port",
				Integer.toString(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"));
		if (password != null) {
			command.addAll(List.of("--requirepass", password));
		}
		Process process = new ProcessBuilder(command)
			.redirectErrorStream(true)
			.redirectOutput(ProcessBuilder.Redirect.DISCARD)
			.start();
		long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
		while (System.nanoTime() < deadline) {
			try (Socket socket = new Socket("127.0.0.1", port)) {
				return new RedisServer(process, port, password);
			}
			catch (IOException notYet) {
				Thread.sleep(50);
			}
		}
		process.destroyForcibly();
		throw new IllegalStateException("redis-server did not start on port " + port);
	}

	/** The server's URL, with its password when it has one. */
	public String url() {
		return "redis://" + ((this.password != null) ? ":" + this.password + "@" : "") + "127.0.0.1:" + this.port;
	}

	@Override
	public void close() throws InterruptedException {
		this.process.destroy();
		this.process.waitFor();
	}

}
