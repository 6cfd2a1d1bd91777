package dev.junction.gateway.cache;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import dev.junction.gateway.support.RunningGateway;
import dev.junction.mock.MockProviderServer;
import dev.junction.mock.stats.Route;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The response cache on a real gateway with two gateway keys, in front of the emulator.
 */
class ResponseCacheIntegrationTests {

	static final String KEY_A = "Bearer cache-key-a";

	static final String KEY_B = "Bearer cache-key-b";

	private static MockProviderServer upstream;

	private static RunningGateway gateway;

	@BeforeAll
	static void start() {
		upstream = MockProviderServer.start(Map.of("junction.mock.latency-ms", 300));
		gateway = RunningGateway.start(properties(upstream, "junction.gateway.cache.enabled=true"));
	}

	@AfterAll
	static void stop() {
		gateway.close();
		upstream.close();
	}

	/**
	 * Keys A and B, provider {@code up} (the emulator), {@code local} (in-process) and
	 * alias {@code creative}.
	 */
	static List<String> properties(MockProviderServer upstream, String... more) {
		List<String> properties = new ArrayList<>(List.of("junction.gateway.auth.keys[0]=cache-key-a",
				"junction.gateway.auth.keys[1]=cache-key-b", "junction.gateway.providers.up.type=openai",
				"junction.gateway.providers.up.base-url=" + upstream.openAiBaseUrl(),
				"junction.gateway.providers.up.keys[0].value=sk-a", "junction.gateway.providers.local.type=mock",
				"junction.gateway.models.creative.targets[0]=up/gpt-4o-mini",
				"junction.gateway.models.creative.cache-sampled=true"));
		properties.addAll(List.of(more));
		return properties;
	}

	@Test
	void servesARepeatedRequestFromTheCacheRegardlessOfFieldOrder() {
		HttpResponse<String> first = post(KEY_A, "{\"model\":\"up/gpt-4o-mini\",\"temperature\":0,"
				+ "\"messages\":[{\"role\":\"user\",\"content\":\"cache me\"}]}");
		long calls = upstreamCalls();
		HttpResponse<String> second = post(KEY_A, "{\"messages\":[{\"content\":\"cache me\",\"role\":\"user\"}],"
				+ "\"temperature\":0,\"model\":\"up/gpt-4o-mini\"}");
		assertThat(first.headers().firstValue("x-junction-cache")).hasValue("MISS");
		assertThat(second.headers().firstValue("x-junction-cache")).hasValue("HIT");
		assertThat(second.body()).isEqualTo(first.body());
		assertThat(upstreamCalls()).isEqualTo(calls);
	}

	@Test
	void aChangedParameterIsAnotherEntryAndNoCacheBypassesTheLookup() {
		String body = "{\"model\":\"up/gpt-4o-mini\",\"temperature\":0,\"messages\":[{\"role\":\"user\",\"content\":\"variant\"}]}";
		post(KEY_A, body);
		HttpResponse<String> other = post(KEY_A, "{\"model\":\"up/gpt-4o-mini\",\"temperature\":0,\"max_tokens\":5,"
				+ "\"messages\":[{\"role\":\"user\",\"content\":\"variant\"}]}");
		assertThat(other.headers().firstValue("x-junction-cache")).hasValue("MISS");
		HttpResponse<String> bypass = post(gateway, KEY_A, body, Map.of("Cache-Control", "no-cache"));
		assertThat(bypass.headers().firstValue("x-junction-cache")).hasValue("MISS");
	}

	@Test
	void identicalRequestsInFlightTogetherMakeOneUpstreamCall() {
		long before = upstreamCalls();
		List<CompletableFuture<HttpResponse<String>>> calls = new ArrayList<>();
		for (int i = 0; i < 8; i++) {
			calls.add(CompletableFuture.supplyAsync(() -> post(KEY_A, "{\"model\":\"up/gpt-4o-mini\",\"temperature\":0,"
					+ "\"messages\":[{\"role\":\"user\",\"content\":\"single flight\"}]}")));
		}
		List<HttpResponse<String>> responses = calls.stream().map(CompletableFuture::join).toList();
		assertThat(responses).allSatisfy((response) -> assertThat(response.statusCode()).isEqualTo(200));
		assertThat(upstreamCalls() - before).isEqualTo(1);
	}

	@Test
	void neverCachesStreams() {
		String body = "{\"model\":\"up/gpt-4o-mini\",\"temperature\":0,\"stream\":true,"
				+ "\"messages\":[{\"role\":\"user\",\"content\":\"s\"}]}";
		long before = upstreamCalls();
		post(KEY_A, body);
		HttpResponse<String> again = post(KEY_A, body);
		assertThat(again.headers().firstValue("x-junction-cache")).isEmpty();
		assertThat(upstreamCalls() - before).isEqualTo(2);
	}

	@Test
	void aSecondGatewayKeyNeverGetsTheFirstKeysAnswer() {
		String body = "{\"model\":\"up/gpt-4o-mini\",\"temperature\":0,"
				+ "\"messages\":[{\"role\":\"user\",\"content\":\"team a's question\"}]}";
		HttpResponse<String> first = post(KEY_A, body);
		HttpResponse<String> other = post(KEY_B, body);
		HttpResponse<String> again = post(KEY_A, body);
		assertThat(first.headers().firstValue("x-junction-cache")).hasValue("MISS");
		assertThat(other.headers().firstValue("x-junction-cache")).hasValue("MISS");
		assertThat(other.body()).isNotEqualTo(first.body());
		assertThat(again.headers().firstValue("x-junction-cache")).hasValue("HIT");
		assertThat(again.body()).isEqualTo(first.body());
	}

	@Test
	void aUserNeverGetsAnotherUsersAnswerUnderTheSameKey() {
		String alice = "{\"model\":\"up/gpt-4o-mini\",\"temperature\":0,\"user\":\"alice\","
				+ "\"messages\":[{\"role\":\"user\",\"content\":\"my own question\"}]}";
		post(KEY_A, alice);
		HttpResponse<String> bob = post(KEY_A, alice.replace("alice", "bob"));
		HttpResponse<String> noUser = post(KEY_A, alice.replace("\"user\":\"alice\",", ""));
		HttpResponse<String> aliceAgain = post(KEY_A, alice);
		assertThat(bob.headers().firstValue("x-junction-cache")).hasValue("MISS");
		assertThat(noUser.headers().firstValue("x-junction-cache")).hasValue("MISS");
		assertThat(aliceAgain.headers().firstValue("x-junction-cache")).hasValue("HIT");
	}

	@Test
	void neverCachesASampledRequest() {
		String body = "{\"model\":\"up/gpt-4o-mini\",\"temperature\":1.5,"
				+ "\"messages\":[{\"role\":\"user\",\"content\":\"be creative\"}]}";
		long before = upstreamCalls();
		HttpResponse<String> first = post(KEY_A, body);
		HttpResponse<String> second = post(KEY_A, body);
		assertThat(first.statusCode()).isEqualTo(200);
		assertThat(second.headers().firstValue("x-junction-cache")).isEmpty();
		assertThat(id(second)).isNotEqualTo(id(first));
		assertThat(upstreamCalls() - before).isEqualTo(2);
	}

	@Test
	void neverCachesARequestWithoutTemperatureOnAProviderWhoseDefaultSamples() {
		String body = "{\"model\":\"up/gpt-4o-mini\",\"messages\":[{\"role\":\"user\",\"content\":\"default temperature\"}]}";
		long before = upstreamCalls();
		post(KEY_A, body);
		HttpResponse<String> second = post(KEY_A, body);
		assertThat(second.headers().firstValue("x-junction-cache")).isEmpty();
		assertThat(upstreamCalls() - before).isEqualTo(2);
	}

	@Test
	void cachesARequestWithoutTemperatureOnADeterministicProvider() {
		String body = "{\"model\":\"local/echo-1\",\"messages\":[{\"role\":\"user\",\"content\":\"deterministic\"}]}";
		post(KEY_A, body);
		assertThat(post(KEY_A, body).headers().firstValue("x-junction-cache")).hasValue("HIT");
	}

	@Test
	void cachesASampledRequestThatSetsASeed() {
		String body = "{\"model\":\"up/gpt-4o-mini\",\"temperature\":0.8,\"seed\":42,"
				+ "\"messages\":[{\"role\":\"user\",\"content\":\"seeded\"}]}";
		post(KEY_A, body);
		assertThat(post(KEY_A, body).headers().firstValue("x-junction-cache")).hasValue("HIT");
	}

	@Test
	void cachesASampledRequestWhenTheRequestAsksForIt() {
		String body = "{\"model\":\"up/gpt-4o-mini\",\"temperature\":1.2,"
				+ "\"messages\":[{\"role\":\"user\",\"content\":\"cache it anyway\"}]}";
		Map<String, String> optIn = Map.of("X-Junction-Cache-Sampled", "true");
		HttpResponse<String> first = post(gateway, KEY_A, body, optIn);
		HttpResponse<String> second = post(gateway, KEY_A, body, optIn);
		assertThat(first.headers().firstValue("x-junction-cache")).hasValue("MISS");
		assertThat(second.headers().firstValue("x-junction-cache")).hasValue("HIT");
		assertThat(post(KEY_A, body).headers().firstValue("x-junction-cache")).as("without the header").isEmpty();
	}

	@Test
	void cachesASampledRequestOnAnAliasThatAllowsIt() {
		String body = "{\"model\":\"creative\",\"messages\":[{\"role\":\"user\",\"content\":\"alias opt-in\"}]}";
		post(KEY_A, body);
		assertThat(post(KEY_A, body).headers().firstValue("x-junction-cache")).hasValue("HIT");
	}

	@Test
	void isOffByDefault() {
		try (RunningGateway plain = RunningGateway.start(properties(upstream))) {
			String body = "{\"model\":\"up/gpt-4o-mini\",\"temperature\":0,"
					+ "\"messages\":[{\"role\":\"user\",\"content\":\"no cache here\"}]}";
			long before = upstreamCalls();
			post(plain, KEY_A, body, Map.of());
			HttpResponse<String> second = post(plain, KEY_A, body, Map.of());
			assertThat(second.headers().firstValue("x-junction-cache")).isEmpty();
			assertThat(upstreamCalls() - before).isEqualTo(2);
		}
	}

	@Test
	void aSharedNamespaceServesEveryKeyAndUser() {
		try (RunningGateway shared = RunningGateway.start(properties(upstream, "junction.gateway.cache.enabled=true",
				"junction.gateway.cache.shared-namespace=everyone"))) {
			String body = "{\"model\":\"up/gpt-4o-mini\",\"temperature\":0,\"user\":\"alice\","
					+ "\"messages\":[{\"role\":\"user\",\"content\":\"shared answer\"}]}";
			HttpResponse<String> first = post(shared, KEY_A, body, Map.of());
			HttpResponse<String> other = post(shared, KEY_B, body.replace("alice", "bob"), Map.of());
			assertThat(first.headers().firstValue("x-junction-cache")).hasValue("MISS");
			assertThat(other.headers().firstValue("x-junction-cache")).hasValue("HIT");
			assertThat(other.body()).isEqualTo(first.body());
		}
	}

	private static long upstreamCalls() {
		return upstream.stats().route(Route.CHAT_COMPLETIONS).requests();
	}

	private static HttpResponse<String> post(String authorization, String body) {
		return post(gateway, authorization, body, Map.of());
	}

	private static String id(HttpResponse<String> response) {
		return dev.junction.gateway.support.Json.parse(response.body()).path("id").asString();
	}

	static HttpResponse<String> post(RunningGateway gateway, String authorization, String body,
			Map<String, String> headers) {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(gateway.baseUrl() + "/v1/chat/completions"))
			.header("Content-Type", "application/json")
			.header("Authorization", authorization)
			.POST(HttpRequest.BodyPublishers.ofString(body));
		headers.forEach(request::header);
		try {
			HttpResponse<String> response = HttpClient.newBuilder()
				.version(HttpClient.Version.HTTP_1_1)
				.build()
				.send(request.build(), HttpResponse.BodyHandlers.ofString());
			assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
			return response;
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

}
