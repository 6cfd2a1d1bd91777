package dev.junction.gateway.calculator;

import java.time.Duration;
import java.util.List;

import dev.junction.gateway.support.Http;
import dev.junction.gateway.support.Json;
import dev.junction.gateway.support.RunningCalculator;
import dev.junction.gateway.support.RunningGateway;
import io.grpc.ConnectivityState;
import io.grpc.ManagedChannel;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The gateway's channel to a real calculator-service is connected before the first call
 * and stays connected: made at start, and made again by itself when the calculator
 * restarts.
 */
class CalculatorChannelIntegrationTests {

	private static final Duration PATIENCE = Duration.ofSeconds(10);

	@Test
	void connectsAtStartBeforeAnyCall() throws Exception {
		try (RunningCalculator calculator = RunningCalculator.start();
				RunningGateway gateway = RunningGateway
					.start(List.of("junction.gateway.calculator.address=" + calculator.address(),
							"junction.gateway.calculator.health-deadline=5s"))) {
			assertThat(gateway.context().getBeanFactory().containsSingleton("calculatorChannel")).isTrue();
			assertThat(awaitState(channel(gateway), ConnectivityState.READY)).isEqualTo(ConnectivityState.READY);
			JsonNode health = Json.parse(Http
				.post(gateway.baseUrl() + "/rpc", null, "{\"jsonrpc\":\"2.0\",\"method\":\"system.health\",\"id\":1}")
				.body());
			assertThat(health.at("/result/dependencies/calculator/status").stringValue()).isEqualTo("up");
		}
	}

	@Test
	void withoutAnAddressMakesTheChannelAtTheFirstCall() {
		try (RunningCalculator calculator = RunningCalculator.start();
				RunningGateway gateway = RunningGateway
					.start(List.of("spring.grpc.client.channel.calculator.target=" + calculator.address()))) {
			assertThat(gateway.context().getBeanFactory().containsSingleton("calculatorChannel")).isFalse();
			assertThat(add(gateway)).isEqualTo(5.0);
			assertThat(gateway.context().getBeanFactory().containsSingleton("calculatorChannel")).isTrue();
		}
	}

	@Test
	void reconnectsByItselfWhenTheCalculatorComesBack() throws Exception {
		RunningCalculator first = RunningCalculator.start();
		int port = first.grpcPort();
		try (RunningGateway gateway = RunningGateway
			.start(List.of("junction.gateway.calculator.address=" + first.address()))) {
			ManagedChannel channel = channel(gateway);
			assertThat(add(gateway)).isEqualTo(5.0);
			assertThat(channel.getState(false)).isEqualTo(ConnectivityState.READY);
			first.close();
			assertThat(awaitNot(channel, ConnectivityState.READY)).isNotEqualTo(ConnectivityState.READY);
			try (RunningCalculator second = RunningCalculator.start("spring.grpc.server.port=" + port)) {
				// No call is made: the channel connects again on its own.
				assertThat(awaitState(channel, ConnectivityState.READY)).isEqualTo(ConnectivityState.READY);
				assertThat(add(gateway)).isEqualTo(5.0);
			}
		}
	}

	@Test
	void recordsEveryCallInTheGrpcClientMetrics() {
		try (RunningCalculator calculator = RunningCalculator.start();
				RunningGateway gateway = RunningGateway
					.start(List.of("junction.gateway.calculator.address=" + calculator.address()))) {
			assertThat(add(gateway)).isEqualTo(5.0);
			String metrics = Http.get(gateway.baseUrl() + "/actuator/prometheus").body();
			assertThat(metrics.lines()
				.filter((line) -> line.startsWith("grpc_client_seconds_count{") && line.contains("rpc_method=\"Add\"")
						&& line.contains("rpc_service=\"calculator.v1.Calculator\""))
				.findFirst()).hasValueSatisfying((line) -> assertThat(line).endsWith(" 1"));
		}
	}

	@Test
	void takesExplicitSpringGrpcChannelSettingsOverItsOwn() throws Exception {
		try (RunningCalculator calculator = RunningCalculator.start();
				RunningGateway gateway = RunningGateway
					.start(List.of("junction.gateway.calculator.address=static://127.0.0.1:1",
							"spring.grpc.client.channel.calculator.target=" + calculator.address()))) {
			assertThat(add(gateway)).isEqualTo(5.0);
		}
	}

	@Test
	void refusesToStartOnAStaticAddressWithoutAPort() {
		assertThatThrownBy(
				() -> RunningGateway.start(List.of("junction.gateway.calculator.address=static://127.0.0.1")))
			.hasMessage("junction.gateway.calculator.address must be static://host:port, not 'static://127.0.0.1'");
	}

	private static double add(RunningGateway gateway) {
		JsonNode sum = Json.parse(Http.post(gateway.baseUrl() + "/rpc", null,
				"{\"jsonrpc\":\"2.0\",\"method\":\"calculator.add\",\"params\":[2,3],\"id\":1}")
			.body());
		return sum.get("result").asDouble();
	}

	private static ManagedChannel channel(RunningGateway gateway) {
		return gateway.context().getBean(CalculatorConfiguration.CalculatorChannel.class).channel();
	}

	private static ConnectivityState awaitState(ManagedChannel channel, ConnectivityState wanted)
			throws InterruptedException {
		long end = System.nanoTime() + PATIENCE.toNanos();
		ConnectivityState state = channel.getState(false);
		while (state != wanted && System.nanoTime() < end) {
			Thread.sleep(20);
			state = channel.getState(false);
		}
		return state;
	}

	private static ConnectivityState awaitNot(ManagedChannel channel, ConnectivityState unwanted)
			throws InterruptedException {
		long end = System.nanoTime() + PATIENCE.toNanos();
		ConnectivityState state = channel.getState(false);
		while (state == unwanted && System.nanoTime() < end) {
			Thread.sleep(20);
			state = channel.getState(false);
		}
		return state;
	}

}
