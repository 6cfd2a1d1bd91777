package dev.junction.mock.config;

import java.time.Duration;
import java.util.List;

import dev.junction.mock.MockProviderApplication;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.util.unit.DataSize;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The emulator's former {@code mock.*} names still work for this release, with one
 * warning at start-up.
 */
@ExtendWith(OutputCaptureExtension.class)
class RenamedMockPropertiesIntegrationTests {

	private static final String WARNING = "Renamed settings, read under their former names";

	@Test
	void readsTheFormerNamesAndWarnsOnce(CapturedOutput output) {
		try (ConfigurableApplicationContext context = MockProviderApplication.application()
			.run("--server.port=0", "--mock.completion-tokens=4", "--mock.max-request-size=1KB",
					"--mock.read-timeout=2s", "--junction.mock.latency-ms=3", "--mock.latency-ms=5")) {
			MockProperties properties = context.getBean(MockProperties.class);
			assertThat(properties.completionTokens()).isEqualTo(4);
			assertThat(properties.http().maxBodySize()).isEqualTo(DataSize.ofKilobytes(1));
			assertThat(properties.http().readTimeout()).isEqualTo(Duration.ofSeconds(2));
			assertThat(properties.latencyMs()).isEqualTo(3);
			List<String> warnings = output.getOut().lines().filter((line) -> line.contains(WARNING)).toList();
			assertThat(warnings).singleElement()
				.asString()
				.contains(" WARN ")
				.contains("mock.completion-tokens -> junction.mock.completion-tokens")
				.contains("mock.max-request-size -> junction.mock.http.max-body-size")
				.contains("mock.read-timeout -> junction.mock.http.read-timeout");
		}
	}

	@Test
	void saysNothingWithTheCurrentNames(CapturedOutput output) {
		try (ConfigurableApplicationContext context = MockProviderApplication.application()
			.run("--server.port=0", "--junction.mock.completion-tokens=4")) {
			assertThat(context.getBean(MockProperties.class).completionTokens()).isEqualTo(4);
			assertThat(output.getOut()).doesNotContain(WARNING);
		}
	}

}
