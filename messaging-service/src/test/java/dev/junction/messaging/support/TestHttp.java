package dev.junction.messaging.support;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import reactor.netty.http.client.HttpClient;
import reactor.netty.resources.ConnectionProvider;

import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ApplicationEvent;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.event.ContextClosedEvent;
import org.springframework.http.client.reactive.ReactorClientHttpConnector;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.web.reactive.function.client.WebClient;

/**
 * HTTP clients for the servers under test: one keep-alive pool per server port, never
 * Reactor Netty's global one. A server started later on a port that an earlier, closed
 * server used must not be reached over a stale pooled connection, so {@link #forget(int)}
 * drops a port's pool when its server closes.
 */
public final class TestHttp {

	private static final Map<Integer, ConnectionProvider> POOLS = new ConcurrentHashMap<>();

	private TestHttp() {
	}

	/**
	 * A Reactor Netty client whose connections to {@code port} are pooled for that port
	 * only.
	 */
	public static HttpClient client(int port) {
		return HttpClient.create(POOLS.computeIfAbsent(port,
				(p) -> ConnectionProvider.builder("test-" + p)
					.maxConnections(64)
					.maxIdleTime(Duration.ofSeconds(5))
					.build()));
	}

	/** A {@link WebTestClient} for the API of the server on {@code port}. */
	public static WebTestClient.Builder webTestClient(int port) {
		return WebTestClient.bindToServer(new ReactorClientHttpConnector(client(port)))
			.baseUrl("http://localhost:" + port + "/api/v2")
			.responseTimeout(Duration.ofSeconds(30));
	}

	/** A {@link WebClient} for the API of the server on {@code port}. */
	public static WebClient.Builder webClient(int port) {
		return WebClient.builder()
			.clientConnector(new ReactorClientHttpConnector(client(port)))
			.baseUrl("http://localhost:" + port + "/api/v2");
	}

	/** Drops the pool of {@code context}'s server when the context closes. */
	public static ConfigurableApplicationContext forgetOnClose(ConfigurableApplicationContext context) {
		int port = ((WebServerApplicationContext) context).getWebServer().getPort();
		context.addApplicationListener((ApplicationEvent event) -> {
			if (event instanceof ContextClosedEvent) {
				forget(port);
			}
		});
		return context;
	}

	/** Closes the connections kept to a server that is closing. */
	public static void forget(int port) {
		ConnectionProvider pool = POOLS.remove(port);
		if (pool != null) {
			pool.disposeLater().block(Duration.ofSeconds(5));
		}
	}

}
