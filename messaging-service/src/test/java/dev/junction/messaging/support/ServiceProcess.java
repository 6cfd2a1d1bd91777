package dev.junction.messaging.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.junction.messaging.MessagingApplication;

/**
 * The service in a JVM of its own, started from the test class path: a real process that
 * can be killed without warning. Its output goes to a file.
 */
public final class ServiceProcess implements AutoCloseable {

	private final Process process;

	private final int port;

	private final Path output;

	private ServiceProcess(Process process, int port, Path output) {
		this.process = process;
		this.port = port;
		this.output = output;
	}

	/**
	 * Starts the service with {@code arguments} on a free port, without waiting for it.
	 */
	public static ServiceProcess start(Path directory, String... arguments) {
		try {
			int port = freePort();
			Path output = Files.createTempFile(directory, "service-", ".log");
			List<String> command = new ArrayList<>(
					List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m",
							"-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
							MessagingApplication.class.getName(), "--server.port=" + port));
			command.addAll(List.of(arguments));
			Process process = new ProcessBuilder(command).directory(directory.toFile())
				.redirectErrorStream(true)
				.redirectOutput(output.toFile())
				.start();
			return new ServiceProcess(process, port, output);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	public int port() {
		return this.port;
	}

	/**
	 * Waits up to {@code timeout} for the service to answer its health check; false if it
	 * did not.
	 */
	public boolean awaitReady(Duration timeout) throws InterruptedException {
		HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
		HttpRequest health = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + "/api/v2/health"))
			.timeout(Duration.ofSeconds(2))
			.build();
		long deadline = System.nanoTime() + timeout.toNanos();
		while (System.nanoTime() < deadline && this.process.isAlive()) {
			try {
				if (client.send(health, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
					return true;
				}
			}
			catch (IOException ex) {
				// not listening yet
			}
			Thread.sleep(200);
		}
		return false;
	}

	/**
	 * Waits up to {@code timeout} for the process to exit; its exit code, or -1 if it is
	 * still running.
	 */
	public int awaitExit(Duration timeout) throws InterruptedException {
		return this.process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS) ? this.process.exitValue() : -1;
	}

	/** Everything the process wrote so far. */
	public String output() {
		try {
			return Files.readString(this.output);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/** Ends the process at once with SIGKILL: no shutdown hook, no graceful stop. */
	public void kill() throws InterruptedException {
		this.process.destroyForcibly();
		this.process.waitFor(10, TimeUnit.SECONDS);
	}

	@Override
	public void close() throws InterruptedException {
		if (this.process.isAlive()) {
			this.process.destroy();
			if (!this.process.waitFor(20, TimeUnit.SECONDS)) {
				kill();
			}
		}
	}

	private static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
	}

}
