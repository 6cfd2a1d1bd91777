package dev.junction.gateway.support;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;

/** A real {@code redis-server} (Debian's package) on a free loopback port, for one test class. */
public final class RedisServer implements AutoCloseable {

	private final Process process;

	private final int port;

	private RedisServer(Process process, int port) {
		this.process = process;
		this.port = port;
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
		int port;
		try (ServerSocket socket = new ServerSocket(0)) {
			port = socket.getLocalPort();
		}
		Process process = new ProcessBuilder("redis-server", "--port", Integer.toString(port), "--bind", "127.0.0.1",
				"--save", "", "--appendonly", "no")
			.redirectErrorStream(true)
			.redirectOutput(ProcessBuilder.Redirect.DISCARD)
			.start();
		long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
		while (System.nanoTime() < deadline) {
			try (Socket socket = new Socket("127.0.0.1", port)) {
				return new RedisServer(process, port);
			}
			catch (IOException notYet) {
				Thread.sleep(50);
			}
		}
		process.destroyForcibly();
		throw new IllegalStateException("redis-server did not start on port " + port);
	}

	public String url() {
		return "redis://127.0.0.1:" + this.port;
	}

	@Override
	public void close() throws InterruptedException {
		this.process.destroy();
		this.process.waitFor();
	}

}
