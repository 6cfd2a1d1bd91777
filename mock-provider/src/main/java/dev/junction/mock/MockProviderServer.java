package dev.junction.mock;

import java.time.Duration;
import java.util.Map;

import dev.junction.mock.config.MockProperties;
import dev.junction.mock.routes.MockRoutes;
import dev.junction.mock.stats.MockStats;
import dev.junction.mock.stats.StatsSnapshot;
import dev.junction.netty.AcceptBacklog;
import io.netty.channel.Channel;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.util.concurrent.GlobalEventExecutor;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;
import reactor.netty.resources.LoopResources;

import org.springframework.http.server.reactive.HttpHandler;
import org.springframework.http.server.reactive.ReactorHttpHandlerAdapter;
import org.springframework.web.reactive.function.server.RouterFunctions;

/**
 * The emulator embedded in another module's tests: the same routes as the application on
 * a bare Reactor Netty server with its own event loops, no Spring context (so the host's
 * auto-configuration cannot interfere), on a random loopback port by default, accepting
 * its backlog at every turn of its event loop as the application does.
 *
 * <pre>{@code
 * try (MockProviderServer mock = MockProviderServer.start(Map.of("junction.mock.latency-ms", 50))) {
 *     client.baseUrl(mock.openAiBaseUrl());   // http://127.0.0.1:<port>/v1
 *     ...
 *     assertThat(mock.stats().route(Route.CHAT_COMPLETIONS).requests()).isEqualTo(1);
 * }
 * }</pre> {@link #start} and {@link #close} wait for the server: call them from test
 * code, not from an event loop.
 */
public final class MockProviderServer implements AutoCloseable {

	private final DisposableServer server;

	private final ChannelGroup connections;

	private final LoopResources loops;

	private final MockStats stats;

	private MockProviderServer(DisposableServer server, ChannelGroup connections, LoopResources loops,
			MockStats stats) {
		this.server = server;
		this.connections = connections;
		this.loops = loops;
		this.stats = stats;
	}

	/** Starts with the defaults on a random loopback port. */
	public static MockProviderServer start() {
		return start(MockProperties.defaults());
	}

	/**
	 * Starts with properties named as in the application
	 * ({@code "junction.mock.error-rate" -> 0.5}) on a random port.
	 */
	public static MockProviderServer start(Map<String, ?> properties) {
		return start(MockProperties.bind(properties));
	}

	/** Starts with these properties on a random loopback port. */
	public static MockProviderServer start(MockProperties properties) {
		return start(properties, "127.0.0.1", 0);
	}

	/** Starts with these properties on a host and port (0 for a random one). */
	public static MockProviderServer start(MockProperties properties, String host, int port) {
		MockStats stats = new MockStats();
		HttpHandler handler = RouterFunctions.toHttpHandler(MockRoutes.create(properties, stats));
		LoopResources loops = LoopResources.create("mock-provider");
		ChannelGroup connections = new DefaultChannelGroup(GlobalEventExecutor.INSTANCE);
		try {
			DisposableServer server = AcceptBacklog.customizer()
				.apply(HttpServer.create())
				.host(host)
				.port(port)
				.runOn(loops)
				.doOnConnection((connection) -> connections.add(connection.channel()))
				.handle(new ReactorHttpHandlerAdapter(handler))
				.bindNow();
			return new MockProviderServer(server, connections, loops, stats);
		}
		catch (RuntimeException ex) {
			loops.dispose();
			throw ex;
		}
	}

	/** The port the server listens on. */
	public int port() {
		return server.port();
	}

	/** The listening channel. */
	Channel listeningChannel() {
		return server.channel();
	}

	/** {@code http://<host>:<port>}: the base URL for Anthropic clients. */
	public String baseUrl() {
		return "http://" + server.host() + ":" + server.port();
	}

	/** {@code http://<host>:<port>/v1}: the base URL for OpenAI clients. */
	public String openAiBaseUrl() {
		return baseUrl() + "/v1";
	}

	/** What the server has served since start or the last {@link #resetStats()}. */
	public StatsSnapshot stats() {
		return stats.snapshot();
	}

	/** Starts the counts of {@link #stats()} from zero. */
	public void resetStats() {
		stats.reset();
	}

	/**
	 * Stops the server at once: no new connection, and every open one (idle, streaming or
	 * stalled) closed.
	 */
	@Override
	public void close() {
		try {
			server.disposeNow(Duration.ofSeconds(5));
			connections.close().awaitUninterruptibly(Duration.ofSeconds(5).toMillis());
		}
		finally {
			loops.dispose();
		}
	}

}
