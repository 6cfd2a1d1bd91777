package dev.junction.gateway.config;

import java.util.List;

import dev.junction.gateway.calculator.CalculatorProperties;
import dev.junction.gateway.support.Http;
import dev.junction.gateway.support.Json;
import dev.junction.gateway.support.RunningCalculator;
import dev.junction.gateway.support.RunningGateway;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The gateway's settings under their former names ({@code junction.providers.*},
 * {@code junction.auth.*}, the calculator client's {@code junction.calculator.*}, ...)
 * still work for this release, with one warning at start-up; the new names win.
 */
@ExtendWith(OutputCaptureExtension.class)
class RenamedGatewayPropertiesIntegrationTests {

	private static final String WARNING = "Renamed settings, read under their former names";

	@Test
	void readsTheFormerNamesAndWarnsOnceAtStart(CapturedOutput output) {
		try (RunningCalculator calculator = RunningCalculator.start();
				RunningGateway gateway = RunningGateway.start(List.of(
						"junction.calculator.address=" + calculator.address(), "junction.calculator.deadline=5s",
						"junction.auth.keys[0]=sk-former", "junction.rate-limit.window=2m"))) {
			assertThat(add(gateway, "sk-former")).isEqualTo(5.0);
			assertThat(add(gateway, "sk-former")).isEqualTo(5.0);
			assertThat(gateway.context().getBean(CalculatorProperties.class).deadline()).hasSeconds(5);
			GatewayProperties properties = gateway.context().getBean(GatewayProperties.class);
			assertThat(properties.auth().keys()).containsExactly("sk-former");
			assertThat(properties.rateLimit().window()).hasMinutes(2);
			List<String> warnings = output.getOut().lines().filter((line) -> line.contains(WARNING)).toList();
			assertThat(warnings).hasSize(1);
			assertThat(warnings.get(0)).contains(" WARN ")
				.contains("junction.calculator.address -> junction.gateway.calculator.address")
				.contains("junction.calculator.deadline -> junction.gateway.calculator.deadline")
				.contains("junction.auth.keys[0] -> junction.gateway.auth.keys[0]")
				.contains("junction.rate-limit.window -> junction.gateway.rate-limit.window");
		}
	}

	@Test
	void prefersTheNewNamesWhereBothAreSet(CapturedOutput output) {
		try (RunningCalculator calculator = RunningCalculator.start();
				RunningGateway gateway = RunningGateway
					.start(List.of("junction.calculator.address=static://127.0.0.1:1",
							"junction.gateway.calculator.address=" + calculator.address(),
							"junction.auth.keys[0]=sk-former", "junction.gateway.auth.keys[0]=sk-current"))) {
			assertThat(add(gateway, "sk-current")).isEqualTo(5.0);
			assertThat(gateway.context().getBean(GatewayProperties.class).auth().keys()).containsExactly("sk-current");
			assertThat(output.getOut()).contains(WARNING);
		}
	}

	@Test
	void saysNothingWithoutTheFormerNames(CapturedOutput output) {
		try (RunningCalculator calculator = RunningCalculator.start();
				RunningGateway gateway = RunningGateway
					.start(List.of("junction.gateway.calculator.address=" + calculator.address()))) {
			assertThat(add(gateway, null)).isEqualTo(5.0);
			assertThat(output.getOut()).doesNotContain(WARNING);
		}
	}

	private static double add(RunningGateway gateway, String key) {
		return Json
			.parse(Http.post(gateway.baseUrl() + "/rpc", (key != null) ? "Bearer " + key : null,
					"{\"jsonrpc\":\"2.0\",\"method\":\"calculator.add\",\"params\":[2,3],\"id\":1}")
				.body())
			.get("result")
			.asDouble();
	}

}
