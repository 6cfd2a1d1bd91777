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

class ResponseCacheIntegrationTests {

	private static MockProviderServer upstream;

	private static RunningGateway gateway;

	@BeforeAll
	static void start() {
		upstream = MockProviderServer.start(Map.of("mock.latency-ms", 300));
		gateway = RunningGateway.start(List.of("junction.providers.up.type=openai",
				"junction.providers.up.base-url=" + upstream.openAiBaseUrl(), "junction.providers.up.keys[0].value=sk-a"));
	}

	@AfterAll
	static void stop() {
		gateway.close();
		upstream.close();
	}

	@Test
	void servesARepeatedRequestFromTheCacheRegardlessOfFieldOrder() {
		HttpResponse<String> first = post("{\"model\":\"up/gpt-4o-mini\",\"temperature\":0.1,"
				+ "\"messages\":[{\"role\":\"user\",\"content\":\"cache me\"}]}", null);
		long calls = upstream.stats().route(Route.CHAT_COMPLETIONS).requests();
		HttpResponse<String> second = post("{\"messages\":[{\"content\":\"cache me\",\"role\":\"user\"}],"
				+ "\"temperature\":0.1,\"model\":\"up/gpt-4o-mini\"}", null);
		assertThat(first.headers().firstValue("x-junction-cache")).hasValue("MISS");
		assertThat(second.headers().firstValue("x-junction-cache")).hasValue("HIT");
		assertThat(second.body()).isEqualTo(first.body());
		assertThat(upstream.stats().route(Route.CHAT_COMPLETIONS).requests()).isEqualTo(calls);
	}

	@Test
	void aChangedParameterIsAnotherEntryAndNoCacheBypassesTheLookup() {
		post("{\"model\":\"up/gpt-4o-mini\",\"messages\":[{\"role\":\"user\",\"content\":\"variant\"}]}", null);
		HttpResponse<String> other = post("{\"model\":\"up/gpt-4o-mini\",\"temperature\":0.9,"
				+ "\"messages\":[{\"role\":\"user\",\"content\":\"variant\"}]}", null);
		assertThat(other.headers().firstValue("x-junction-cache")).hasValue("MISS");
		HttpResponse<String> bypass = post(
				"{\"model\":\"up/gpt-4o-mini\",\"messages\":[{\"role\":\"user\",\"content\":\"variant\"}]}", "no-cache");
		assertThat(bypass.headers().firstValue("x-junction-cache")).hasValue("MISS");
	}

	@Test
	void identicalRequestsInFlightTogetherMakeOneUpstreamCall() {
		long before = upstream.stats().route(Route.CHAT_COMPLETIONS).requests();
		List<CompletableFuture<HttpResponse<String>>> calls = new ArrayList<>();
		for (int i = 0; i < 8; i++) {
			calls.add(CompletableFuture.supplyAsync(() -> post(
					"{\"model\":\"up/gpt-4o-mini\",\"messages\":[{\"role\":\"user\",\"content\":\"single flight\"}]}",
					null)));
		}
		List<HttpResponse<String>> responses = calls.stream().map(CompletableFuture::join).toList();
		assertThat(responses).allSatisfy((response) -> assertThat(response.statusCode()).isEqualTo(200));
		assertThat(upstream.stats().route(Route.CHAT_COMPLETIONS).requests() - before).isEqualTo(1);
	}

	@Test
	void neverCachesStreams() {
		String body = "{\"model\":\"up/gpt-4o-mini\",\"stream\":true,\"messages\":[{\"role\":\"user\",\"content\":\"s\"}]}";
		long before = upstream.stats().route(Route.CHAT_COMPLETIONS).requests();
		post(body, null);
		HttpResponse<String> again = post(body, null);
		assertThat(again.headers().firstValue("x-junction-cache")).isEmpty();
		assertThat(upstream.stats().route(Route.CHAT_COMPLETIONS).requests() - before).isEqualTo(2);
	}

	private static HttpResponse<String> post(String body, String cacheControl) {
		return post(gateway, body, cacheControl);
	}

	static HttpResponse<String> post(RunningGateway gateway, String body, String cacheControl) {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(gateway.baseUrl() + "/v1/chat/completions"))
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString(body));
		if (cacheControl != null) {
			request.header("Cache-Control", cacheControl);
		}
		try {
			return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()
				.send(request.build(), HttpResponse.BodyHandlers.ofString());
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

}
