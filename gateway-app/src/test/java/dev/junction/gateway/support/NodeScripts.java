package dev.junction.gateway.support;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Node.js scripts under {@code src/test}, each in its own npm package: installed from its
 * lock file when its packages are not installed yet (skipping the test when Node is not
 * on the PATH), then run. {@code npm install --no-save} rather than {@code npm ci}: the
 * reference package names an optional dependency that not every registry serves, which
 * {@code npm install} skips as optional while {@code npm ci} refuses the whole lock file.
 */
public final class NodeScripts {

	private final Path directory;

	private NodeScripts(Path directory) {
		this.directory = directory;
	}

	/**
	 * The package in {@code directory}, installed unless {@code installed} (a path under
	 * its {@code node_modules}) already exists.
	 */
	public static NodeScripts installed(String directory, String installed) throws Exception {
		NodeScripts scripts = new NodeScripts(Path.of(directory));
		assumeTrue(available("node"), "node is not on the PATH");
		if (!Files.isDirectory(scripts.directory.resolve("node_modules").resolve(installed))) {
			assumeTrue(available("npm"), "npm is not on the PATH");
			// No install scripts: the clients need none, and some dependencies build
			// native code.
			Result install = scripts
				.run(List.of("npm", "install", "--no-save", "--no-audit", "--no-fund", "--ignore-scripts"), 600);
			assertThat(install.exitCode()).as("npm install: %s", install.output()).isZero();
		}
		return scripts;
	}

	/** Runs {@code command} in the package's directory; output and errors together. */
	public Result run(List<String> command, long timeoutSeconds) throws IOException, InterruptedException {
		File output = File.createTempFile("node-script", ".log");
		try {
			Process process = new ProcessBuilder(command).directory(this.directory.toFile())
				.redirectErrorStream(true)
				.redirectOutput(output)
				.start();
			if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
				process.destroyForcibly();
				return new Result(-1, "timed out after " + timeoutSeconds + " s: "
						+ Files.readString(output.toPath(), StandardCharsets.UTF_8));
			}
			return new Result(process.exitValue(), Files.readString(output.toPath(), StandardCharsets.UTF_8));
		}
		finally {
			Files.deleteIfExists(output.toPath());
		}
	}

	private static boolean available(String command) {
		try {
			return new NodeScripts(Path.of(".")).run(List.of(command, "--version"), 30).exitCode() == 0;
		}
		catch (IOException ex) {
			return false;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
	}

	/**
	 * How a script ended.
	 *
	 * @param exitCode its exit code, -1 if it was stopped for taking too long
	 * @param output what it printed
	 */
	public record Result(int exitCode, String output) {
	}

}
