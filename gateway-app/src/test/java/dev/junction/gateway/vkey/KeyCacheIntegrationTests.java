package dev.junction.gateway.vkey;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;

import dev.junction.gateway.support.AdminApi;
import dev.junction.gateway.support.Http;
import dev.junction.gateway.support.Json;
import dev.junction.gateway.support.RunningGateway;
import dev.junction.gateway.support.TestPostgres;
import dev.junction.mock.MockProviderServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Two gateways on one real PostgreSQL keep virtual keys in memory: a change made through
 * one reaches the other through the database's notifications, and a gateway that is not
 * listening reads every key from the database. The database is changed behind the
 * gateways' backs (no notification) to see which of the two they read.
 */
class KeyCacheIntegrationTests {

	private static final String CHAT = "{\"model\":\"emu/gpt-4o-mini\",\"max_tokens\":5,"
			+ "\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";

	private static final Duration NOTIFIED = Duration.ofSeconds(5);

	private static TestPostgres postgres;

	private static MockProviderServer emulator;

	private static RunningGateway first;

	private static RunningGateway second;

	@BeforeAll
	static void start() {
		postgres = TestPostgres.start();
		// The gateways' own role, so that its new connections can be refused while the
		// test's are not.
		postgres.execute("postgres", "CREATE ROLE gateway LOGIN");
		postgres.execute("postgres", "CREATE DATABASE keys OWNER gateway");
		emulator = MockProviderServer.start(Map.of("junction.mock.completion-tokens", 5));
		List<String> properties = List.of("junction.gateway.auth.admin-keys[0]=admin-secret",
				"junction.gateway.cache.enabled=false",
				"junction.gateway.virtual-keys.db.url=" + postgres.url("keys").replace("postgres@", "gateway@"),
				"junction.gateway.providers.emu.type=openai",
				"junction.gateway.providers.emu.base-url=" + emulator.openAiBaseUrl(),
				"junction.gateway.providers.emu.keys[0].value=sk-emu");
		first = RunningGateway.start(properties);
		second = RunningGateway.start(properties);
	}

	@AfterAll
	static void stop() {
		if (first != null) {
			first.close();
			second.close();
		}
		if (emulator != null) {
			emulator.close();
		}
		if (postgres != null) {
			postgres.close();
		}
	}

	@BeforeEach
	void bothGatewaysListen() {
		await().atMost(Duration.ofSeconds(15)).until(() -> cache(first).trusted() && cache(second).trusted());
	}

	@Test
	void aKeyChangedOnOneGatewayIsAppliedByTheOtherOnceNotified() {
		AdminApi admin = new AdminApi(first.baseUrl(), "admin-secret");
		JsonNode key = admin.create("{\"name\":\"changing\",\"models\":[\"emu/*\"]}");
		String id = key.path("id").asString();
		String secret = key.path("key").asString();
		assertThat(chat(second, secret)).isEqualTo(200);

		assertThat(admin.send("PATCH", "/admin/v1/keys/" + id, "{\"models\":[\"other/*\"]}").statusCode())
			.isEqualTo(200);
		await().atMost(NOTIFIED).until(() -> chat(second, secret) == 403);

		JsonNode rotated = Json.parse(admin.send("POST", "/admin/v1/keys/" + id + "/rotate", null).body());
		await().atMost(NOTIFIED).until(() -> chat(second, secret) == 401);
		String newSecret = rotated.path("key").asString();
		assertThat(admin.send("PATCH", "/admin/v1/keys/" + id, "{\"models\":null}").statusCode()).isEqualTo(200);
		await().atMost(NOTIFIED).until(() -> chat(second, newSecret) == 200);

		assertThat(admin.send("DELETE", "/admin/v1/keys/" + id, null).statusCode()).isEqualTo(200);
		await().atMost(NOTIFIED).until(() -> chat(second, newSecret) == 401);
		assertThat(chat(first, newSecret)).isEqualTo(401);
	}

	@Test
	void aCachedKeyIsServedWithoutReadingTheDatabase() {
		JsonNode key = new AdminApi(first.baseUrl(), "admin-secret").create("{\"name\":\"cached\"}");
		String secret = key.path("key").asString();
		assertThat(chat(second, secret)).isEqualTo(200);
		revokeBehindTheGatewaysBacks(key.path("id").asString());
		assertThat(chat(second, secret)).as("served from the cache").isEqualTo(200);
		assertThat(chat(first, secret)).as("read from the database").isEqualTo(401);
	}

	@Test
	void aGatewayThatStopsListeningReadsEveryKeyFromTheDatabaseUntilItListensAgain() {
		JsonNode key = new AdminApi(first.baseUrl(), "admin-secret").create("{\"name\":\"unheard\"}");
		String id = key.path("id").asString();
		String secret = key.path("key").asString();
		// Enough pooled connections to go on serving while new ones are refused.
		List<CompletableFuture<Integer>> warm = IntStream.range(0, 6)
			.mapToObj((i) -> CompletableFuture.supplyAsync(() -> chat(second, secret)))
			.toList();
		assertThat(warm.stream().map(CompletableFuture::join)).containsOnly(200);
		revokeBehindTheGatewaysBacks(id);
		assertThat(chat(second, secret)).as("served from the cache").isEqualTo(200);

		postgres.execute("postgres", "ALTER ROLE gateway CONNECTION LIMIT 0");
		try {
			postgres.execute("postgres",
					"SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = '"
							+ KeyChangeListener.APPLICATION_NAME + "'");
			await().atMost(NOTIFIED).until(() -> !cache(second).trusted());
			assertThat(chat(second, secret)).as("the cache was flushed").isEqualTo(401);
			setRevoked(id, null);
			assertThat(chat(second, secret)).isEqualTo(200);
			revokeBehindTheGatewaysBacks(id);
			assertThat(chat(second, secret)).as("nothing kept while not listening").isEqualTo(401);
			setRevoked(id, null);
			assertThat(cache(second).trusted()).as("still not listening").isFalse();
		}
		finally {
			postgres.execute("postgres", "ALTER ROLE gateway CONNECTION LIMIT -1");
		}

		await().atMost(Duration.ofSeconds(15)).until(() -> cache(second).trusted());
		assertThat(chat(second, secret)).isEqualTo(200);
		revokeBehindTheGatewaysBacks(id);
		assertThat(chat(second, secret)).as("served from the cache again").isEqualTo(200);
	}

	private static void revokeBehindTheGatewaysBacks(String id) {
		setRevoked(id, 0L);
	}

	private static void setRevoked(String id, Long at) {
		postgres.execute("keys",
				"UPDATE virtual_keys SET revoked_at = " + ((at != null) ? at : "NULL") + " WHERE id = '" + id + "'");
	}

	private static int chat(RunningGateway gateway, String secret) {
		return Http.post(gateway.baseUrl() + "/v1/chat/completions", "Bearer " + secret, CHAT).statusCode();
	}

	private static KeyCache cache(RunningGateway gateway) {
		return gateway.context().getBean(KeyCache.class);
	}

}
