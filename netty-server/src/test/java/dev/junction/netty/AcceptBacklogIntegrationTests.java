package dev.junction.netty;

import io.netty.channel.Channel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.reactor.netty.NettyServerCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.ServerResponse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.web.reactive.function.server.RequestPredicates.GET;
import static org.springframework.web.reactive.function.server.RouterFunctions.route;

/**
 * Connections that arrive while the listening socket's event loop is busy are all
 * accepted at its next turn, not one a turn: a burst of new connections does not wait in
 * the backlog while the loop serves the connections it has.
 */
class AcceptBacklogIntegrationTests {

	private static final int CONNECTIONS = 50;

	private static volatile Channel listening;

	@RegisterExtension
	static final RunningServer server = new RunningServer(Application.class);

	@Test
	void acceptsTheConnectionsThatArrivedWhileTheLoopWasBusyAtOnce() throws Exception {
		try (AcceptBursts burst = AcceptBursts.connectWhileBusy(listening, server.port(), CONNECTIONS)) {
			assertThat(burst.batches()).containsExactly(CONNECTIONS);
			assertThat(burst.statusLines("/hello")).hasSize(CONNECTIONS)
				.allSatisfy((line) -> assertThat(line).startsWith("HTTP/1.1 200 "));
		}
	}

	@SpringBootConfiguration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	@Import(NettyServerConfiguration.class)
	static class Application {

		@Bean
		NettyServerCustomizer listeningChannel() {
			return (server) -> server.doOnBound((bound) -> listening = bound.channel());
		}

		@Bean
		RouterFunction<ServerResponse> routes() {
			return route(GET("/hello"), (request) -> ServerResponse.ok().bodyValue("hello"));
		}

	}

}
