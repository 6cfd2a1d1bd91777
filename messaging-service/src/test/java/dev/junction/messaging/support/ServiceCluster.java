package dev.junction.messaging.support;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import dev.junction.messaging.MessagingApplication;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * Several instances of the service, each on a Netty port of its own, with the tests'
 * admin key, on a database of their own on the PostgreSQL server the other tests share:
 * the instances of other test classes, still running in this JVM, take no part in their
 * work (a webhook delivery, a notification).
 */
public final class ServiceCluster implements AutoCloseable {

	private final List<ConfigurableApplicationContext> instances = new ArrayList<>();

	private final String database;

	private ServiceCluster(String database) {
		this.database = database;
	}

	/**
	 * Starts {@code size} instances, each with {@code arguments} as extra command-line
	 * arguments.
	 */
	public static ServiceCluster start(int size, String... arguments) {
		ServiceCluster cluster = new ServiceCluster(TestDatabase.createPostgresDatabase());
		String[] all = Stream.concat(Stream.of(cluster.arguments(arguments)), Stream.of("--server.port=0"))
			.toArray(String[]::new);
		try {
			for (int i = 0; i < size; i++) {
				cluster.instances
					.add(TestHttp.forgetOnClose(new SpringApplicationBuilder(MessagingApplication.class).run(all)));
			}
			return cluster;
		}
		catch (RuntimeException ex) {
			cluster.close();
			throw ex;
		}
	}

	/**
	 * The command-line arguments of an instance on this cluster's database, then
	 * {@code extra}. Where redis-server is installed (CI installs it), every instance
	 * shares one real Redis for its rate limits, set high so that only their sharing
	 * shows, over ten years so that no request comes back during a test; elsewhere rate
	 * limits are off.
	 */
	public String[] arguments(String... extra) {
		List<String> arguments = new ArrayList<>(
				List.of("--spring.r2dbc.url=" + TestDatabase.url(TestDatabase.sharedPostgres(), this.database),
						"--junction.messaging.admin-key=" + IntegrationTestSupport.ADMIN_KEY,
						"--logging.level.io.zonky.test=warn"));
		if (RedisServer.installed()) {
			arguments.addAll(List.of("--spring.data.redis.url=" + SharedRedis.SERVER.url(),
					"--junction.messaging.rate-limit.window=3650d", "--junction.messaging.rate-limit.messages=1000000",
					"--junction.messaging.rate-limit.events=1000000",
					"--junction.messaging.rate-limit.instances=1000000",
					"--junction.messaging.rate-limit.general=1000000"));
		}
		else {
			arguments.add("--junction.messaging.rate-limit.enabled=false");
		}
		arguments.addAll(List.of(extra));
		return arguments.toArray(String[]::new);
	}

	/** Whether the instances share their rate limits through a real Redis. */
	public static boolean sharedRedis() {
		return RedisServer.installed();
	}

	/** One redis-server for every cluster of this JVM, stopped when the JVM exits. */
	private static final class SharedRedis {

		static final RedisServer SERVER = start();

		private static RedisServer start() {
			RedisServer server = RedisServer.onFreePort().start();
			Runtime.getRuntime().addShutdownHook(new Thread(server::close));
			return server;
		}

	}

	public int size() {
		return this.instances.size();
	}

	/** The port of instance {@code index}. */
	public int port(int index) {
		return ((WebServerApplicationContext) this.instances.get(index)).getWebServer().getPort();
	}

	/** A client of instance {@code index} with the admin key. */
	public WebTestClient admin(int index) {
		return TestHttp.webTestClient(port(index)).defaultHeader("x-api-key", IntegrationTestSupport.ADMIN_KEY).build();
	}

	/**
	 * POSTs {@code body} as JSON through {@code client}, expecting 201; the created
	 * resource.
	 */
	public static JsonNode create(WebTestClient client, String path, Object body) {
		return client.post()
			.uri(path)
			.contentType(MediaType.APPLICATION_JSON)
			.bodyValue(body)
			.exchange()
			.expectStatus()
			.isCreated()
			.expectBody(JsonNode.class)
			.returnResult()
			.getResponseBody();
	}

	/** A connection to this cluster's database. */
	public Connection connection() throws SQLException {
		return TestDatabase.sharedPostgres().getDatabase("postgres", this.database).getConnection();
	}

	/** A bean of instance {@code index}. */
	public <T> T bean(int index, Class<T> type) {
		return this.instances.get(index).getBean(type);
	}

	@Override
	public void close() {
		this.instances.forEach(ConfigurableApplicationContext::close);
		this.instances.clear();
	}

}
