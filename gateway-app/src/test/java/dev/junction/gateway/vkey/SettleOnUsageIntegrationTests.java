package dev.junction.gateway.vkey;

import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;

import dev.junction.gateway.support.AdminApi;
import dev.junction.gateway.support.Http;
import dev.junction.gateway.support.RunningGateway;
import dev.junction.mock.MockProviderServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Budget and token reservations are settled when the usage arrives, before the answer
 * that carries it reaches the client: a client that asks again as soon as it reads the
 * usage of a stream (whose end comes a second later) is not refused for what that answer
 * did not use. One reservation of a request (max_tokens 100 and, for a key's own limits,
 * a prompt of about 11 tokens) fits in each limit here, two do not; the emulator's
 * answers use 5 completion tokens.
 */
class SettleOnUsageIntegrationTests {

	private static final String CHAT = "{\"model\":\"emu/gpt-4o-mini\",\"max_tokens\":100,"
			+ "\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";

	private static final String STREAM = "{\"model\":\"emu/gpt-4o-mini\",\"max_tokens\":100,\"stream\":true,"
			+ "\"stream_options\":{\"include_usage\":true},\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";

	private static MockProviderServer emulator;

	private static RunningGateway gateway;

	/** A gateway whose configured key has a token limit per minute. */
	private static RunningGateway limited;

	private static AdminApi admin;

	@BeforeAll
	static void start() {
		emulator = MockProviderServer.start(Map.of("junction.mock.completion-tokens", 5, "junction.mock.stream-chunks",
				1, "junction.mock.chunk-delay-ms", 1000));
		List<String> common = List.of("junction.gateway.cache.enabled=false",
				"junction.gateway.providers.emu.type=openai",
				"junction.gateway.providers.emu.base-url=" + emulator.openAiBaseUrl(),
				"junction.gateway.providers.emu.keys[0].value=sk-emu");
		gateway = RunningGateway.start(
				Stream
					.concat(common.stream(),
							Stream
								.of("junction.gateway.auth.admin-keys[0]=admin-secret",
										"junction.gateway.virtual-keys.db.url=jdbc:h2:mem:" + UUID.randomUUID()
												+ ";DB_CLOSE_DELAY=-1"))
					.toList());
		limited = RunningGateway.start(Stream
			.concat(common.stream(),
					Stream.of("junction.gateway.auth.keys[0]=limited-secret", "junction.gateway.rate-limit.tokens=150"))
			.toList());
		admin = new AdminApi(gateway.baseUrl(), "admin-secret");
	}

	@AfterAll
	static void stop() {
		gateway.close();
		limited.close();
		emulator.close();
	}

	@Test
	void aRequestRightAfterAStreamsUsageIsNotRefusedForTheKeysTokensTheStreamDidNotUse() throws Exception {
		String bearer = "Bearer " + admin.create("{\"name\":\"tokens\",\"rate_limit\":{\"tokens_per_minute\":200}}")
			.path("key")
			.asString();
		assertNextRequestAfterUsageIsServed(gateway, bearer);
	}

	@Test
	void aRequestRightAfterAStreamsUsageIsNotRefusedForTheBudgetTheStreamDidNotUse() throws Exception {
		// A reservation is about $0.00006 at gpt-4o-mini's price, the answer costs about
		// $0.000005.
		String bearer = "Bearer "
				+ admin.create("{\"name\":\"budget\",\"budget\":{\"usd\":0.0001,\"period\":\"monthly\"}}")
					.path("key")
					.asString();
		assertNextRequestAfterUsageIsServed(gateway, bearer);
	}

	@Test
	void aRequestRightAfterAStreamsUsageIsNotRefusedForTheGatewayKeysTokensTheStreamDidNotUse() throws Exception {
		assertNextRequestAfterUsageIsServed(limited, "Bearer limited-secret");
	}

	private static void assertNextRequestAfterUsageIsServed(RunningGateway target, String bearer) throws Exception {
		HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
		HttpRequest stream = HttpRequest.newBuilder(URI.create(target.baseUrl() + "/v1/chat/completions"))
			.header("Authorization", bearer)
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString(STREAM))
			.build();
		HttpResponse<InputStream> streamed = client.send(stream, HttpResponse.BodyHandlers.ofInputStream());
		assertThat(streamed.statusCode()).isEqualTo(200);
		try (BufferedReader lines = new BufferedReader(
				new InputStreamReader(streamed.body(), StandardCharsets.UTF_8))) {
			String line;
			while ((line = lines.readLine()) != null && !line.contains("\"usage\":{")) {
				assertThat(line).doesNotContain("[DONE]");
			}
			assertThat(line).as("the usage chunk").isNotNull();
			HttpResponse<String> next = Http.post(target.baseUrl() + "/v1/chat/completions", bearer, CHAT);
			assertThat(next.statusCode()).as("asked before the stream ended: %s", next.body()).isEqualTo(200);
			while ((line = lines.readLine()) != null && !line.contains("[DONE]")) {
				// The rest of the stream.
			}
			assertThat(line).as("the stream ended after the second request").contains("[DONE]");
		}
	}

}
