package dev.junction.gateway.rpc;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.junction.gateway.support.RunningCalculator;
import dev.junction.gateway.support.RunningGateway;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The unmodified {@code @trpc/client} from npm against {@code /trpc}, through {@code httpLink}
 * and {@code httpBatchLink}: {@code src/test/trpc-client/client-test.mjs} run by Node. Installs
 * the client with {@code npm ci} when it is not installed yet; skipped when Node is not on the PATH.
 */
class TrpcClientIntegrationTests {

	private static final Path CLIENT = Path.of("src/test/trpc-client");

	private static RunningCalculator calculator;

	private static RunningGateway gateway;

	@BeforeAll
	static void start() throws Exception {
		assumeTrue(available("node"), "node is not on the PATH");
		if (!Files.isDirectory(CLIENT.resolve("node_modules/@trpc/client"))) {
			assumeTrue(available("npm"), "npm is not on the PATH");
			Result install = run(List.of("npm", "ci", "--no-audit", "--no-fund"), 300);
			assertThat(install.exitCode()).as("npm ci: %s", install.output()).isZero();
		}
		calculator = RunningCalculator.start();
		gateway = RunningGateway.start(List.of("junction.auth.keys[0]=node-test-key",
				"junction.calculator.address=" + calculator.address()));
	}

	@AfterAll
	static void stop() {
		if (gateway != null) {
			gateway.close();
		}
		if (calculator != null) {
			calculator.close();
		}
	}

	@Test
	void trpcClientQueriesMutatesAndSeesErrorsThroughBothLinks() throws Exception {
		Result result = run(List.of("node", "client-test.mjs", gateway.baseUrl(), "node-test-key"), 120);
		assertThat(result.exitCode()).as(result.output()).isZero();
		assertThat(result.output()).contains("httpLink: ok", "httpBatchLink: ok", "all ok");
	}

	private static boolean available(String command) {
		try {
			return run(List.of(command, "--version"), 30).exitCode() == 0;
		}
		catch (IOException ex) {
			return false;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
	}

	private static Result run(List<String> command, long timeoutSeconds) throws IOException, InterruptedException {
		File output = File.createTempFile("trpc-client", ".log");
		try {
			Process process = new ProcessBuilder(command).directory(CLIENT.toFile())
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

	private record Result(int exitCode, String output) {
	}

}
