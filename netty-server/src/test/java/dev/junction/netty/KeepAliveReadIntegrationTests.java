package dev.junction.netty;

import java.io.IOException;
import java.net.Socket;
import java.time.Duration;

import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.extension.RegisterExtension;
import reactor.core.publisher.Mono;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.ServerResponse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.web.reactive.function.server.RequestPredicates.GET;
import static org.springframework.web.reactive.function.server.RouterFunctions.route;

/**
 * A keep-alive connection goes on being read after a request that was held back while the
 * one before it finished: a client that sends its next request before the server has
 * finished the last one (pipelining, or just a prompt client) is answered every time.
 */
class KeepAliveReadIntegrationTests {

	@RegisterExtension
	static final RunningServer server = new RunningServer(Application.class);

	@RepeatedTest(5)
	void readsTheNextRequestAfterAHeldBackOneIsAnswered() throws IOException {
		try (Socket socket = new Socket("127.0.0.1", server.port())) {
			socket.setSoTimeout((int) Duration.ofSeconds(5).toMillis());
			// The second request arrives while the first is still being answered, so it
			// is held back, and then answered at once.
			RawHttp.send(socket, request("/slow") + request("/fast"));
			assertThat(RawHttp.readResponse(socket)).startsWith("HTTP/1.1 200 ").endsWith("slow");
			assertThat(RawHttp.readResponse(socket)).startsWith("HTTP/1.1 200 ").endsWith("fast");
			RawHttp.send(socket, request("/fast"));
			assertThat(RawHttp.readResponse(socket)).startsWith("HTTP/1.1 200 ").endsWith("fast");
		}
	}

	private static String request(String path) {
		return "GET " + path + " HTTP/1.1\r\nHost: localhost\r\n\r\n";
	}

	@SpringBootConfiguration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	@Import(NettyServerConfiguration.class)
	static class Application {

		@Bean
		RouterFunction<ServerResponse> routes() {
			return route(GET("/slow"),
					(request) -> Mono.delay(Duration.ofMillis(50)).then(ServerResponse.ok().bodyValue("slow")))
				.andRoute(GET("/fast"), (request) -> ServerResponse.ok().bodyValue("fast"));
		}

	}

}
