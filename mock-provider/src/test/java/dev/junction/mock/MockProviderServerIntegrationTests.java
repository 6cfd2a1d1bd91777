package dev.junction.mock;

import java.util.Map;

import dev.junction.mock.config.MockProperties;
import dev.junction.mock.stats.Route;
import dev.junction.mock.support.Requests;
import dev.junction.mock.support.TestHttp;
import dev.junction.netty.AcceptBursts;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class MockProviderServerIntegrationTests {

	@Test
	void startsOnARandomLoopbackPortAndStops() {
		String baseUrl;
		try (MockProviderServer server = MockProviderServer.start()) {
			assertThat(server.port()).isPositive();
			assertThat(server.baseUrl()).isEqualTo("http://127.0.0.1:" + server.port());
			assertThat(server.openAiBaseUrl()).isEqualTo(server.baseUrl() + "/v1");
			baseUrl = server.baseUrl();
			assertThat(TestHttp.of(server).post("/v1/chat/completions", Requests.openAi("hi", "")).status())
				.isEqualTo(200);
			assertThat(server.stats().route(Route.CHAT_COMPLETIONS).ok()).isEqualTo(1);
		}
		assertThatThrownBy(() -> TestHttp.of(baseUrl).post("/v1/chat/completions", Requests.openAi("hi", "")))
			.hasMessageContaining("Connection refused");
	}

	@Test
	void resetsItsStats() {
		try (MockProviderServer server = MockProviderServer.start()) {
			TestHttp.of(server).post("/v1/chat/completions", Requests.openAi("hi", ""));
			server.resetStats();

			assertThat(server.stats().route(Route.CHAT_COMPLETIONS).requests()).isZero();
			TestHttp.of(server).post("/v1/chat/completions", Requests.openAi("hi", ""));
			assertThat(server.stats().route(Route.CHAT_COMPLETIONS).requests()).isEqualTo(1);
		}
	}

	@Test
	void acceptsTheConnectionsThatArrivedWhileItsLoopWasBusyAtOnce() throws Exception {
		try (MockProviderServer server = MockProviderServer.start();
				AcceptBursts burst = AcceptBursts.connectWhileBusy(server.listeningChannel(), server.port(), 50)) {
			assertThat(burst.batches()).containsExactly(50);
			assertThat(burst.statusLines("/v1/models")).hasSize(50).containsOnly("HTTP/1.1 200 OK");
		}
	}

	@Test
	void failsFastOnAWrongPropertyNamingIt() {
		assertThatThrownBy(() -> MockProviderServer.start(Map.of("junction.mock.error-rate", 1.5))).rootCause()
			.hasMessage("junction.mock.error-rate must be between 0 and 1");
		assertThatThrownBy(() -> MockProperties.bind(Map.of("junction.mock.error-status", 200))).rootCause()
			.hasMessageContaining("junction.mock.error-status");
	}

}
