package dev.junction.gateway.warmup;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import dev.junction.gateway.GatewayApplication;
import dev.junction.mock.MockProviderServer;
import dev.junction.mock.stats.Route;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code junction.gateway.warm-up.then-exit}, as {@code bin/gateway}'s training run uses
 * it: the gateway, in a JVM of its own, starts, warms up when a model is set, and exits
 * with status 0.
 */
class ExitAfterStartIntegrationTests {

	@Test
	void exitsOnceItHasWarmedUp(@TempDir Path directory) throws Exception {
		try (MockProviderServer emulator = MockProviderServer.start(Map.of())) {
			Path log = directory.resolve("gateway.log");
			Process gateway = start(log, "--junction.gateway.providers.emu.type=openai",
					"--junction.gateway.providers.emu.base-url=" + emulator.openAiBaseUrl(),
					"--junction.gateway.providers.emu.keys[0].value=sk-emu",
					"--junction.gateway.warm-up.model=emu/gpt-4o-mini", "--junction.gateway.warm-up.requests=20",
					"--junction.gateway.warm-up.until-compiled=false");
			assertThat(gateway.waitFor(90, TimeUnit.SECONDS)).as("exited").isTrue();
			assertThat(gateway.exitValue()).as(Files.readString(log)).isZero();
			assertThat(emulator.stats().route(Route.CHAT_COMPLETIONS).requests()).isEqualTo(20);
			assertThat(Files.readString(log)).contains("20 requests to emu/gpt-4o-mini answered")
				.contains("Started; exiting, as junction.gateway.warm-up.then-exit asks")
				.doesNotContain("ERROR");
		}
	}

	@Test
	void exitsOnceItHasStartedWithoutAWarmUp(@TempDir Path directory) throws Exception {
		Path log = directory.resolve("gateway.log");
		Process gateway = start(log);
		assertThat(gateway.waitFor(90, TimeUnit.SECONDS)).as("exited").isTrue();
		assertThat(gateway.exitValue()).as(Files.readString(log)).isZero();
		assertThat(Files.readString(log)).contains("Started; exiting").doesNotContain("Warmed up");
	}

	private static Process start(Path log, String... arguments) throws Exception {
		List<String> command = new ArrayList<>(
				List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
						System.getProperty("java.class.path"), GatewayApplication.class.getName(), "--server.port=0",
						"--server.address=127.0.0.1", "--junction.gateway.warm-up.then-exit=true"));
		command.addAll(List.of(arguments));
		return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
	}

}
