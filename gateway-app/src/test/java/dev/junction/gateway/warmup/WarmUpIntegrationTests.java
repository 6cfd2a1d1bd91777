package dev.junction.gateway.warmup;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.junction.gateway.support.GatewayFixture;
import dev.junction.gateway.support.Http;
import dev.junction.gateway.support.Json;
import dev.junction.gateway.support.RunningGateway;
import dev.junction.mock.MockProviderServer;
import dev.junction.mock.stats.Route;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpHeaders;
import org.springframework.web.server.WebFilter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;
import static org.awaitility.Awaitility.await;

@ExtendWith(OutputCaptureExtension.class)
class WarmUpIntegrationTests {

	private static final String KEY = "gw-warm-up-key";

	private static final String COMPLETION = """
			{"id":"chatcmpl-1","object":"chat.completion","created":1,"model":"gpt-4o-mini",
			"choices":[{"index":0,"message":{"role":"assistant","content":"Hi."},"finish_reason":"stop"}],
			"usage":{"prompt_tokens":5,"completion_tokens":1,"total_tokens":6}}""";

	@Test
	void sendsTheConfiguredRequestsThroughTheGatewayAndItsProviderBeforeTheStartReturns(CapturedOutput output) {
		MockProviderServer emulator = MockProviderServer.start(Map.of());
		try (GatewayFixture gateway = inFrontOf(emulator, "junction.gateway.auth.keys[0]=" + KEY,
				"junction.gateway.warm-up.model=emu/gpt-4o-mini", "junction.gateway.warm-up.requests=40",
				"junction.gateway.warm-up.concurrency=4", "junction.gateway.warm-up.key=" + KEY,
				"junction.gateway.warm-up.until-compiled=false")) {
			assertThat(emulator.stats().route(Route.CHAT_COMPLETIONS).requests()).isEqualTo(40);
			assertThat(emulator.stats().route(Route.CHAT_COMPLETIONS).streams()).as("every fourth one streamed")
				.isEqualTo(10);
			assertThat(Http.get(gateway.baseUrl() + "/actuator/health").statusCode()).isEqualTo(200);
			assertThat(output).contains("Warmed up in").contains("40 requests to emu/gpt-4o-mini answered");
		}
	}

	@Test
	void sendsItsRequestsAsClientsDoMostWithALengthSomeInChunksAndSomeOnNewConnections() {
		MockProviderServer emulator = MockProviderServer.start(Map.of());
		try (GatewayFixture gateway = GatewayFixture
			.with("junction.gateway.warm-up.model=emu/gpt-4o-mini", "junction.gateway.warm-up.requests=64",
					"junction.gateway.warm-up.concurrency=2", "junction.gateway.cache.enabled=false",
					"junction.gateway.warm-up.until-compiled=false")
			.openAi("emu", emulator, "sk-emu")
			.start(ReceivedRequests.class)) {
			List<HttpHeaders> received = gateway.context().getBean(ReceivedRequests.class).headers;
			assertThat(received).hasSize(64);
			assertThat(received).filteredOn((headers) -> headers.getContentLength() > 0).hasSize(56);
			assertThat(received).filteredOn((headers) -> "chunked".equals(headers.getFirst("Transfer-Encoding")))
				.hasSize(8);
			assertThat(received).filteredOn((headers) -> "close".equalsIgnoreCase(headers.getFirst("Connection")))
				.hasSize(1);
			assertThat(received).filteredOn((headers) -> headers.containsHeader("Accept-Encoding")).isNotEmpty();
			assertThat(emulator.stats().route(Route.CHAT_COMPLETIONS).requests()).isEqualTo(64);
			assertThat(emulator.stats().route(Route.CHAT_COMPLETIONS).streams()).isEqualTo(16);
		}
	}

	@Test
	void goesOnOneRequestAtATimeUntilTheJitIsQuietWithinItsMaximumDuration(CapturedOutput output) {
		MockProviderServer emulator = MockProviderServer.start(Map.of());
		long start = System.nanoTime();
		try (GatewayFixture gateway = inFrontOf(emulator, "junction.gateway.warm-up.model=emu/gpt-4o-mini",
				"junction.gateway.warm-up.requests=20", "junction.gateway.warm-up.max-duration=8s")) {
			assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(30));
			Matcher logged = Pattern.compile(
					"Warmed up in \\d+ ms: (\\d+) requests to emu/gpt-4o-mini answered \\((\\d+) of them while the JIT caught up\\)")
				.matcher(output.toString());
			assertThat(logged.find()).as(output.toString()).isTrue();
			long answered = Long.parseLong(logged.group(1));
			assertThat(answered).as("a second's worth at least after the first 20").isGreaterThan(40);
			assertThat(Long.parseLong(logged.group(2))).isEqualTo(answered - 20);
			// One more may have reached the emulator when the maximum duration cut it
			// off.
			assertThat(emulator.stats().route(Route.CHAT_COMPLETIONS).requests()).isBetween(answered, answered + 1);
			assertThat(Http.get(gateway.baseUrl() + "/actuator/health").statusCode()).isEqualTo(200);
		}
	}

	@Test
	void stopsWaitingForTheJitAtTheFirstFailure(CapturedOutput output) {
		AtomicInteger received = new AtomicInteger();
		DisposableServer upstream = HttpServer.create()
			.host("127.0.0.1")
			.port(0)
			.route((routes) -> routes.post("/v1/chat/completions", (request, response) -> request.receive()
				.then(Mono.defer(() -> (received.incrementAndGet() <= 3)
						? response.header("Content-Type", "application/json").sendString(Mono.just(COMPLETION)).then()
						: response.status(400)
							.header("Content-Type", "application/json")
							.sendString(Mono
								.just("{\"error\":{\"message\":\"no more\",\"type\":\"invalid_request_error\"}}"))
							.then()))))
			.bindNow();
		try (GatewayFixture gateway = GatewayFixture
			.with("junction.gateway.warm-up.model=emu/gpt-4o-mini", "junction.gateway.warm-up.requests=3",
					"junction.gateway.warm-up.concurrency=1", "junction.gateway.warm-up.max-duration=10s",
					"junction.gateway.cache.enabled=false")
			.openAi("emu", "http://127.0.0.1:" + upstream.port() + "/v1", "sk-emu")
			.start()) {
			assertThat(received).hasValue(4);
			assertThat(output).contains("3 answered and 1 failed, the first with 400");
		}
		finally {
			upstream.disposeNow();
		}
	}

	@Test
	void warmsUpOverTlsWhenTheServerSpeaksIt(@TempDir Path directory) throws Exception {
		Path keyStore = directory.resolve("gateway.p12");
		Process keytool = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
				"-genkeypair", "-alias", "gateway", "-keyalg", "EC", "-dname", "CN=localhost", "-validity", "1",
				"-storetype", "PKCS12", "-keystore", keyStore.toString(), "-storepass", "changeit")
			.redirectErrorStream(true)
			.start();
		assertThat(keytool.waitFor(60, TimeUnit.SECONDS)).isTrue();
		assertThat(keytool.exitValue()).as(new String(keytool.getInputStream().readAllBytes())).isZero();
		MockProviderServer emulator = MockProviderServer.start(Map.of());
		try (GatewayFixture gateway = inFrontOf(emulator, "server.ssl.key-store=" + keyStore,
				"server.ssl.key-store-password=changeit", "server.ssl.key-store-type=PKCS12",
				"junction.gateway.warm-up.model=emu/gpt-4o-mini", "junction.gateway.warm-up.requests=8",
				"junction.gateway.warm-up.until-compiled=false")) {
			assertThat(emulator.stats().route(Route.CHAT_COMPLETIONS).requests()).isEqualTo(8);
		}
	}

	@Test
	void keepsTheGatewayNotReadyUntilItIsDone() throws Exception {
		int port = freePort();
		MockProviderServer slow = MockProviderServer.start(Map.of("junction.mock.latency-ms", 400));
		CompletableFuture<GatewayFixture> starting = CompletableFuture
			.supplyAsync(() -> inFrontOf(slow, "server.port=" + port, "junction.gateway.warm-up.model=emu/gpt-4o-mini",
					"junction.gateway.warm-up.requests=10", "junction.gateway.warm-up.concurrency=1",
					"junction.gateway.warm-up.until-compiled=false"));
		try {
			String url = "http://127.0.0.1:" + port + "/actuator/health";
			await().atMost(Duration.ofSeconds(30))
				.pollInterval(Duration.ofMillis(50))
				.until(() -> slow.stats().route(Route.CHAT_COMPLETIONS).requests() > 0);
			HttpResponse<String> warming = Http.get(url);
			assertThat(warming.statusCode()).as(warming.body()).isEqualTo(503);
			JsonNode readiness = Json.parse(warming.body()).path("components").path("readinessState");
			assertThat(readiness.path("status").asString()).isEqualTo("OUT_OF_SERVICE");
			assertThat(starting).isNotDone();
			starting.get(30, TimeUnit.SECONDS);
			assertThat(slow.stats().route(Route.CHAT_COMPLETIONS).requests()).isEqualTo(10);
			assertThat(Http.get(url).statusCode()).isEqualTo(200);
		}
		finally {
			starting.get(30, TimeUnit.SECONDS).close();
		}
	}

	@Test
	void aRefusedWarmUpIsLoggedWithItsAnswerAndTheGatewayStillStarts(CapturedOutput output) {
		MockProviderServer emulator = MockProviderServer.start(Map.of());
		try (GatewayFixture gateway = inFrontOf(emulator, "junction.gateway.auth.keys[0]=" + KEY,
				"junction.gateway.warm-up.model=emu/gpt-4o-mini", "junction.gateway.warm-up.requests=5")) {
			assertThat(emulator.stats().route(Route.CHAT_COMPLETIONS).requests()).isZero();
			assertThat(output).contains("0 answered and 5 failed, the first with 401")
				.contains("invalid_api_key")
				.doesNotContain(KEY);
			assertThat(Http.get(gateway.baseUrl() + "/actuator/health").statusCode()).isEqualTo(200);
		}
	}

	@Test
	void stopsAtItsMaximumDuration(CapturedOutput output) {
		MockProviderServer slow = MockProviderServer.start(Map.of("junction.mock.latency-ms", 1000));
		try (GatewayFixture gateway = inFrontOf(slow, "junction.gateway.warm-up.model=emu/gpt-4o-mini",
				"junction.gateway.warm-up.requests=1000", "junction.gateway.warm-up.concurrency=2",
				"junction.gateway.warm-up.max-duration=1500ms")) {
			assertThat(slow.stats().route(Route.CHAT_COMPLETIONS).requests()).isBetween(2L, 6L);
			assertThat(output).contains("Warmed up in").contains("requests to emu/gpt-4o-mini answered");
			assertThat(Http.get(gateway.baseUrl() + "/actuator/health").statusCode()).isEqualTo(200);
		}
	}

	@Test
	void aModelThatDoesNotRouteFailsTheStart() {
		assertThatException()
			.isThrownBy(() -> RunningGateway.start(List.of("junction.gateway.warm-up.model=nowhere/gpt-4o-mini")))
			.havingRootCause()
			.withMessageContaining("junction.gateway.warm-up.model: 'nowhere/gpt-4o-mini'");
	}

	@Test
	void isNotThereUnlessAModelIsSet() {
		try (RunningGateway gateway = RunningGateway.start(List.of("junction.gateway.warm-up.model="))) {
			assertThat(Http.get(gateway.baseUrl() + "/actuator/health").statusCode()).isEqualTo(200);
		}
		try (RunningGateway gateway = RunningGateway.start(List.of())) {
			assertThat(gateway.context().getBeansOfType(WarmUp.class)).isEmpty();
		}
	}

	/** The headers of the chat completions the server received. */
	@Configuration(proxyBeanMethods = false)
	static class ReceivedRequests {

		final List<HttpHeaders> headers = new CopyOnWriteArrayList<>();

		@Bean
		WebFilter receivedRequestsFilter() {
			return (exchange, chain) -> {
				if (exchange.getRequest().getPath().value().equals("/v1/chat/completions")) {
					this.headers.add(HttpHeaders.copyOf(exchange.getRequest().getHeaders()));
				}
				return chain.filter(exchange);
			};
		}

	}

	/**
	 * The gateway with the provider {@code emu} at the emulator, which it closes with
	 * itself (or at once if it does not start).
	 */
	private static GatewayFixture inFrontOf(MockProviderServer emulator, String... properties) {
		return GatewayFixture.with(properties)
			.properties("junction.gateway.cache.enabled=false")
			.openAi("emu", emulator, "sk-emu")
			.start();
	}

	private static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
	}

}
