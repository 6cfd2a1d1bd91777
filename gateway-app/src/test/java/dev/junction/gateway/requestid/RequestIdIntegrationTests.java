package dev.junction.gateway.requestid;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.junction.gateway.support.Http;
import dev.junction.gateway.support.RunningCalculator;
import dev.junction.gateway.support.RunningGateway;
import dev.junction.mock.MockProviderServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code X-Request-Id} end to end, on real servers: the gateway accepts or replaces the
 * client's id, answers with it, and passes it to the provider emulator (OpenAI
 * pass-through and the Spring AI Anthropic path) and to calculator-service, whose log
 * lines carry it.
 */
@ExtendWith(OutputCaptureExtension.class)
class RequestIdIntegrationTests {

	private static final String KEY = "Bearer request-id-key";

	private static final String GENERATED = "[0-9a-f]{32}";

	private static MockProviderServer emulator;

	private static RunningCalculator calculator;

	private static RunningGateway gateway;

	@BeforeAll
	static void start() {
		emulator = MockProviderServer.start(Map.of());
		calculator = RunningCalculator.start();
		List<String> properties = new ArrayList<>(List.of("junction.gateway.auth.keys[0]=request-id-key",
				"junction.gateway.providers.emu.type=openai",
				"junction.gateway.providers.emu.base-url=" + emulator.openAiBaseUrl(),
				"junction.gateway.providers.emu.keys[0].value=sk-emu",
				"junction.gateway.providers.claude.type=anthropic",
				"junction.gateway.providers.claude.base-url=" + emulator.baseUrl(),
				"junction.gateway.providers.claude.keys[0].value=sk-emu", "junction.gateway.cache.enabled=false",
				"junction.gateway.calculator.address=" + calculator.address(),
				// The gateway starts last, so its logging set-up is the one in force in
				// this JVM:
				// the access log, and the emulator's and the calculator's per-request
				// lines.
				"logging.level.dev.junction.gateway.access=info", "logging.level.dev.junction.mock.requestid=debug",
				"logging.level.dev.junction.calculator.server.RequestIdInterceptor=debug"));
		gateway = RunningGateway.start(properties);
	}

	@AfterAll
	static void stop() {
		if (gateway != null) {
			gateway.close();
		}
		if (calculator != null) {
			calculator.close();
		}
		if (emulator != null) {
			emulator.close();
		}
	}

	@Test
	void passesTheClientsIdToTheOpenAiUpstreamAndReturnsIt(CapturedOutput output) {
		HttpResponse<String> response = post("/v1/chat/completions", chat("emu/gpt-4o-mini", false),
				"client-id-chat.1");
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.headers().firstValue(RequestId.HEADER)).hasValue("client-id-chat.1");
		eventually(() -> assertThat(output.getOut())
			.containsPattern("\\[request.id=client-id-chat.1] \\S*RequestIdFilter\\s*: POST /v1/chat/completions")
			.containsPattern("\\[request.id=client-id-chat.1 [^]]*] dev.junction.gateway.access\\s*: "
					+ "POST /v1/chat/completions 200 "));
	}

	@Test
	void passesTheIdOnStreamsAndTheSpringAiPath(CapturedOutput output) {
		HttpResponse<String> stream = post("/v1/chat/completions", chat("emu/gpt-4o-mini", true), "client-id-sse");
		assertThat(stream.statusCode()).isEqualTo(200);
		assertThat(stream.body()).contains("data: [DONE]");
		assertThat(stream.headers().firstValue(RequestId.HEADER)).hasValue("client-id-sse");
		HttpResponse<String> anthropic = post("/v1/chat/completions", chat("claude/claude-haiku-4-5", false),
				"client-id-claude");
		assertThat(anthropic.statusCode()).isEqualTo(200);
		assertThat(anthropic.headers().firstValue(RequestId.HEADER)).hasValue("client-id-claude");
		eventually(() -> assertThat(output.getOut())
			.containsPattern("\\[request.id=client-id-sse] \\S*RequestIdFilter\\s*: POST /v1/chat/completions")
			.containsPattern("\\[request.id=client-id-claude] \\S*RequestIdFilter\\s*: POST /v1/messages"));
	}

	@Test
	void passesTheIdToTheCalculatorAsGrpcMetadata(CapturedOutput output) {
		HttpResponse<String> response = post("/rpc",
				"{\"jsonrpc\":\"2.0\",\"method\":\"calculator.add\",\"params\":[2,3],\"id\":1}", "client-id-rpc");
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.body()).contains("\"result\":5.0");
		assertThat(response.headers().firstValue(RequestId.HEADER)).hasValue("client-id-rpc");
		eventually(() -> assertThat(output.getOut()).containsPattern(
				"\\[request.id=client-id-rpc[^]]*] \\S*RequestIdInterceptor\\s*: calculator.v1.Calculator/Add OK"));
	}

	@Test
	void generatesAnIdWhenNoneIsSentAndPassesThatOneOn(CapturedOutput output) {
		HttpResponse<String> first = post("/v1/chat/completions", chat("emu/gpt-4o-mini", false), null);
		HttpResponse<String> second = post("/v1/chat/completions", chat("emu/gpt-4o-mini", false), null);
		String id = first.headers().firstValue(RequestId.HEADER).orElseThrow();
		assertThat(id).matches(GENERATED);
		assertThat(second.headers().firstValue(RequestId.HEADER))
			.hasValueSatisfying((other) -> assertThat(other).matches(GENERATED).isNotEqualTo(id));
		eventually(() -> assertThat(output.getOut()).contains("[request.id=" + id + "] "));
	}

	@Test
	void replacesAMaliciousOrOversizedId() {
		for (String bad : List.of("x".repeat(65), "two words", "id\"><script>alert(1)</script>", "a\tb", "é")) {
			HttpResponse<String> response = post("/v1/chat/completions", chat("emu/gpt-4o-mini", false), bad);
			assertThat(response.statusCode()).isEqualTo(200);
			assertThat(response.headers().firstValue(RequestId.HEADER))
				.hasValueSatisfying((id) -> assertThat(id).matches(GENERATED));
		}
		HttpResponse<String> longest = post("/v1/chat/completions", chat("emu/gpt-4o-mini", false), "y".repeat(64));
		assertThat(longest.headers().firstValue(RequestId.HEADER)).hasValue("y".repeat(64));
	}

	@Test
	void answersEveryResponseWithTheIdErrorsIncluded() {
		HttpResponse<String> unknownModel = post("/v1/chat/completions", chat("nope/x", false), "err-404");
		assertThat(unknownModel.statusCode()).isEqualTo(404);
		assertThat(unknownModel.headers().firstValue(RequestId.HEADER)).hasValue("err-404");
		HttpResponse<String> unauthorized = Http.send(request("/v1/chat/completions", "err-401")
			.POST(HttpRequest.BodyPublishers.ofString(chat("emu/gpt-4o-mini", false)))
			.build());
		assertThat(unauthorized.statusCode()).isEqualTo(401);
		assertThat(unauthorized.headers().firstValue(RequestId.HEADER)).hasValue("err-401");
		HttpResponse<String> badRpc = post("/rpc", "{not json", "err-rpc");
		assertThat(badRpc.body()).contains("-32700");
		assertThat(badRpc.headers().firstValue(RequestId.HEADER)).hasValue("err-rpc");
		HttpResponse<String> trpc = Http
			.send(request("/trpc/no.such.procedure", "err-trpc").header("Authorization", KEY).GET().build());
		assertThat(trpc.statusCode()).isEqualTo(404);
		assertThat(trpc.headers().firstValue(RequestId.HEADER)).hasValue("err-trpc");
		for (String path : List.of("/health", "/actuator/health", "/no/such/path")) {
			HttpResponse<String> response = Http.send(request(path, "plain-" + path.length()).GET().build());
			assertThat(response.headers().firstValue(RequestId.HEADER)).hasValue("plain-" + path.length());
		}
	}

	/**
	 * Log lines written after the response (the access log) may lag behind it a little.
	 */
	private static void eventually(Runnable assertion) {
		long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
		while (true) {
			try {
				assertion.run();
				return;
			}
			catch (AssertionError ex) {
				if (System.nanoTime() > deadline) {
					throw ex;
				}
				try {
					Thread.sleep(20);
				}
				catch (InterruptedException interrupted) {
					Thread.currentThread().interrupt();
					throw ex;
				}
			}
		}
	}

	private static HttpResponse<String> post(String path, String body, String requestId) {
		return Http.send(request(path, requestId).header("Authorization", KEY)
			.POST(HttpRequest.BodyPublishers.ofString(body))
			.build());
	}

	private static HttpRequest.Builder request(String path, String requestId) {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(gateway.baseUrl() + path))
			.timeout(Duration.ofSeconds(30))
			.header("Content-Type", "application/json");
		if (requestId != null) {
			request.header(RequestId.HEADER, requestId);
		}
		return request;
	}

	private static String chat(String model, boolean stream) {
		return "{\"model\":\"" + model + "\",\"stream\":" + stream
				+ ",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],\"max_tokens\":4}";
	}

}
