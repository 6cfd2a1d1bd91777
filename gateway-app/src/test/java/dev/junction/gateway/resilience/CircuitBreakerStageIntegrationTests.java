package dev.junction.gateway.resilience;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.junction.gateway.support.Http;
import dev.junction.gateway.support.NoErrorLogs;
import dev.junction.gateway.support.RunningGateway;
import dev.junction.mock.MockProviderServer;
import dev.junction.mock.stats.Route;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Only a provider's own failures count against it: client mistakes, whether the gateway
 * or the provider spots them, never open a breaker, so one client's bad requests cost
 * other clients nothing; and per-provider Resilience4j settings
 * ({@code instances.<provider>}) change the numbers without changing that.
 */
class CircuitBreakerStageIntegrationTests {

	@RegisterExtension
	final NoErrorLogs noErrorLogs = new NoErrorLogs();

	private static MockProviderServer anthropic;

	private static MockProviderServer refusing;

	private static MockProviderServer failing;

	private static RunningGateway gateway;

	@BeforeAll
	static void start() {
		anthropic = MockProviderServer.start(Map.of());
		refusing = MockProviderServer.start(Map.of("junction.mock.error-rate", 1.0, "junction.mock.error-status", 400));
		failing = MockProviderServer.start(Map.of("junction.mock.error-rate", 1.0, "junction.mock.error-status", 503));
		List<String> properties = new ArrayList<>(List.of("junction.gateway.cache.enabled=false",
				"junction.gateway.auth.keys[0]=careless", "junction.gateway.auth.keys[1]=careful",
				"resilience4j.retry.configs.default.wait-duration=10ms",
				"resilience4j.circuitbreaker.configs.default.sliding-window-size=10",
				"resilience4j.circuitbreaker.configs.default.minimum-number-of-calls=5",
				"resilience4j.retry.instances.picky.max-attempts=2",
				"resilience4j.circuitbreaker.instances.picky.sliding-window-size=2",
				"resilience4j.circuitbreaker.instances.picky.minimum-number-of-calls=2",
				"resilience4j.retry.instances.shaky.max-attempts=2",
				"resilience4j.circuitbreaker.instances.shaky.sliding-window-size=2",
				"resilience4j.circuitbreaker.instances.shaky.minimum-number-of-calls=2",
				"resilience4j.circuitbreaker.instances.shaky.wait-duration-in-open-state=1h"));
		properties.addAll(provider("claude", "anthropic", anthropic.baseUrl()));
		properties.addAll(provider("claude400", "anthropic", refusing.baseUrl()));
		properties.addAll(provider("picky", "openai", refusing.openAiBaseUrl()));
		properties.addAll(provider("shaky", "openai", failing.openAiBaseUrl()));
		gateway = RunningGateway.start(properties);
	}

	@AfterAll
	static void stop() {
		gateway.close();
		for (MockProviderServer server : List.of(anthropic, refusing, failing)) {
			server.close();
		}
	}

	private static List<String> provider(String name, String type, String baseUrl) {
		return List.of("junction.gateway.providers." + name + ".type=" + type,
				"junction.gateway.providers." + name + ".base-url=" + baseUrl,
				"junction.gateway.providers." + name + ".keys[0].value=sk-" + name);
	}

	@Test
	void aHundredInvalidRequestsLeaveTheBreakersClosedForEveryoneElse() {
		long sentToAnthropic = anthropic.stats().route(Route.MESSAGES).requests();
		long refused = refusing.stats().route(Route.MESSAGES).requests();
		List<String> invalid = List.of(
				// Refused by the adapter before anything is sent.
				"{\"model\":\"claude/claude-haiku-4-5\",\"messages\":[{\"role\":\"system\",\"content\":\"Be brief.\"}]}",
				"{\"model\":\"claude/claude-haiku-4-5\",\"n\":2,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}",
				"{\"model\":\"claude/claude-haiku-4-5\",\"tools\":[{\"type\":\"function\",\"function\":{}}],"
						+ "\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}",
				// Refused by Anthropic itself.
				"{\"model\":\"claude400/claude-haiku-4-5\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");
		for (int i = 0; i < 100; i++) {
			HttpResponse<String> response = Http.post(gateway.baseUrl() + "/v1/chat/completions", "Bearer careless",
					invalid.get(i % invalid.size()));
			assertThat(response.statusCode()).as("request %d: %s", i, response.body()).isEqualTo(400);
			assertThat(response.body()).contains("\"type\":\"invalid_request_error\"");
		}
		assertThat(anthropic.stats().route(Route.MESSAGES).requests()).as("nothing the adapter refused was sent")
			.isEqualTo(sentToAnthropic);
		assertThat(refusing.stats().route(Route.MESSAGES).requests()).as("each refused request sent once")
			.isEqualTo(refused + 25);
		assertThat(state("claude:key0")).isEqualTo(CircuitBreaker.State.CLOSED);
		assertThat(state("claude400:key0")).isEqualTo(CircuitBreaker.State.CLOSED);

		HttpResponse<String> served = Http.post(gateway.baseUrl() + "/v1/chat/completions", "Bearer careful",
				"{\"model\":\"claude/claude-haiku-4-5\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");
		assertThat(served.statusCode()).as(served.body()).isEqualTo(200);
	}

	@Test
	void aProvidersOwnInstanceSettingsNeverMakeAClientErrorRetriedOrCounted() {
		long before = refusing.stats().route(Route.CHAT_COMPLETIONS).requests();
		for (int i = 0; i < 10; i++) {
			assertThat(chat("picky").statusCode()).isEqualTo(400);
		}
		assertThat(refusing.stats().route(Route.CHAT_COMPLETIONS).requests()).as("sent once each, never retried")
			.isEqualTo(before + 10);
		assertThat(state("picky:key0")).isEqualTo(CircuitBreaker.State.CLOSED);
	}

	@Test
	void aProvidersOwnInstanceSettingsApplyToItsRetriesAndItsKeysBreakers() {
		long before = failing.stats().route(Route.CHAT_COMPLETIONS).requests();
		HttpResponse<String> failed = chat("shaky");
		assertThat(failed.statusCode()).isEqualTo(503);
		assertThat(failing.stats().route(Route.CHAT_COMPLETIONS).requests()).as("its own max-attempts")
			.isEqualTo(before + 2);
		assertThat(state("shaky:key0")).as("its own window of two calls").isEqualTo(CircuitBreaker.State.OPEN);
		HttpResponse<String> refused = chat("shaky");
		assertThat(refused.statusCode()).isEqualTo(503);
		assertThat(refused.body()).contains("\"code\":\"circuit_breaker\"");
		assertThat(failing.stats().route(Route.CHAT_COMPLETIONS).requests()).isEqualTo(before + 2);
	}

	private static HttpResponse<String> chat(String provider) {
		return Http.post(gateway.baseUrl() + "/v1/chat/completions", "Bearer careful",
				"{\"model\":\"" + provider + "/gpt-4o-mini\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");
	}

	private static CircuitBreaker.State state(String name) {
		return gateway.context()
			.getBean(CircuitBreakerRegistry.class)
			.find(name)
			.map(CircuitBreaker::getState)
			.orElseThrow(() -> new AssertionError("no breaker " + name));
	}

}
