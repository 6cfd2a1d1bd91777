package dev.junction.gateway.tracing;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.junction.gateway.metrics.GenAiSpan;
import dev.junction.gateway.requestid.RequestId;
import dev.junction.gateway.support.Http;
import dev.junction.gateway.support.RunningCalculator;
import dev.junction.gateway.support.RunningGateway;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * W3C trace context end to end, on real servers: the client's {@code traceparent} reaches
 * an OpenAI-compatible upstream, an Anthropic one (through Spring AI) and
 * calculator-service over a gRPC channel with the client's trace id, and the request's
 * span carries the OpenTelemetry GenAI attributes.
 */
@ExtendWith(OutputCaptureExtension.class)
class TracingIntegrationTests {

	private static final String KEY = "Bearer tracing-key";

	private static final Map<String, String> traceparents = new ConcurrentHashMap<>();

	private static final Map<String, String> requestIds = new ConcurrentHashMap<>();

	private static final List<SpanData> spans = new CopyOnWriteArrayList<>();

	private static HttpServer upstream;

	private static RunningCalculator calculator;

	private static RunningGateway gateway;

	@BeforeAll
	static void start() throws IOException {
		upstream = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
		upstream.createContext("/v1/chat/completions", (exchange) -> answer(exchange,
				"{\"id\":\"c\",\"object\":\"chat.completion\",\"created\":1,\"model\":\"gpt-t\",\"choices\":[{\"index\":0,"
						+ "\"message\":{\"role\":\"assistant\",\"content\":\"hi\"},\"finish_reason\":\"stop\"}],"
						+ "\"usage\":{\"prompt_tokens\":7,\"completion_tokens\":3,\"total_tokens\":10}}"));
		upstream.createContext("/v1/messages", (exchange) -> answer(exchange,
				"{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"claude-t\",\"content\":"
						+ "[{\"type\":\"text\",\"text\":\"hi\"}],\"stop_reason\":\"end_turn\",\"stop_sequence\":null,"
						+ "\"usage\":{\"input_tokens\":5,\"output_tokens\":2}}"));
		upstream.start();
		String origin = "http://127.0.0.1:" + upstream.getAddress().getPort();
		calculator = RunningCalculator.start();
		List<String> properties = new ArrayList<>(List.of("junction.gateway.auth.keys[0]=tracing-key",
				"junction.gateway.providers.up.type=openai", "junction.gateway.providers.up.base-url=" + origin + "/v1",
				"junction.gateway.providers.up.keys[0].value=sk-up", "junction.gateway.providers.claude.type=anthropic",
				"junction.gateway.providers.claude.base-url=" + origin,
				"junction.gateway.providers.claude.keys[0].value=sk-up", "junction.gateway.cache.enabled=false",
				"junction.gateway.calculator.address=" + calculator.address(),
				"management.opentelemetry.tracing.export.schedule-delay=50ms",
				// The gateway starts last, so its logging set-up is the one in force in
				// this JVM.
				"logging.level.dev.junction.calculator.server.RequestIdInterceptor=debug"));
		gateway = RunningGateway.start(properties, SpanCapture.class);
	}

	@AfterAll
	static void stop() {
		if (gateway != null) {
			gateway.close();
		}
		if (calculator != null) {
			calculator.close();
		}
		if (upstream != null) {
			upstream.stop(0);
		}
	}

	@Test
	void passesTheClientsTraceToTheOpenAiUpstreamAndUsesItsTraceIdAsTheRequestId() {
		String traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
		HttpResponse<String> response = post("/v1/chat/completions", chat("up/gpt-t", "openai-1"),
				traceparent(traceId, "00f067aa0ba902b7", "01"));
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(traceparents.get("openai-1")).matches("00-" + traceId + "-[0-9a-f]{16}-01")
			.doesNotContain("00f067aa0ba902b7");
		assertThat(response.headers().firstValue(RequestId.HEADER)).hasValue(traceId);
		assertThat(requestIds.get("openai-1")).isEqualTo(traceId);
	}

	@Test
	void passesTheClientsTraceToTheAnthropicUpstreamThroughSpringAi() {
		String traceId = "5bf92f3577b34da6a3ce929d0e0e4737";
		HttpResponse<String> response = post("/v1/chat/completions", chat("claude/claude-t", "anthropic-1"),
				traceparent(traceId, "00f067aa0ba902b8", "01"));
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(traceparents.get("anthropic-1")).matches("00-" + traceId + "-[0-9a-f]{16}-01");
	}

	@Test
	void keepsAnUnsampledTraceUnsampledAndItsIdUpstream() {
		String traceId = "6bf92f3577b34da6a3ce929d0e0e4738";
		HttpResponse<String> response = post("/v1/chat/completions", chat("up/gpt-t", "unsampled-1"),
				traceparent(traceId, "00f067aa0ba902b9", "00"));
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(traceparents.get("unsampled-1")).matches("00-" + traceId + "-[0-9a-f]{16}-00");
	}

	@Test
	void startsATraceWhenTheClientSentNone() {
		HttpResponse<String> response = post("/v1/chat/completions", chat("up/gpt-t", "fresh-1"), null);
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(traceparents.get("fresh-1")).matches("00-(?!0{32})[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}");
	}

	@Test
	void passesTheClientsTraceToTheCalculatorOverGrpc(CapturedOutput output) {
		String traceId = "7bf92f3577b34da6a3ce929d0e0e4739";
		HttpResponse<String> response = post("/rpc",
				"{\"jsonrpc\":\"2.0\",\"method\":\"calculator.add\",\"params\":[2,3],\"id\":1}",
				traceparent(traceId, "00f067aa0ba902ba", "01"));
		assertThat(response.body()).contains("\"result\":5.0");
		await().atMost(Duration.ofSeconds(5))
			.untilAsserted(() -> assertThat(output.getOut()).containsPattern("\\[request.id=" + traceId + " trace.id="
					+ traceId + "] \\S*RequestIdInterceptor\\s*: calculator.v1.Calculator/Add OK"));
	}

	@Test
	void recordsTheRequestsSpanWithTheGenAiAttributes() {
		String traceId = "8bf92f3577b34da6a3ce929d0e0e473a";
		HttpResponse<String> response = post("/v1/chat/completions", chat("up/gpt-t", "genai-1"),
				traceparent(traceId, "00f067aa0ba902bb", "01"));
		assertThat(response.statusCode()).isEqualTo(200);
		await().atMost(Duration.ofSeconds(5))
			.untilAsserted(() -> assertThat(spans).filteredOn((span) -> span.getTraceId().equals(traceId))
				.anySatisfy((span) -> {
					assertThat(span.getParentSpanId()).isEqualTo("00f067aa0ba902bb");
					assertThat(span.getAttributes().asMap())
						.containsEntry(AttributeKey.stringKey(GenAiSpan.OPERATION_NAME), "chat")
						.containsEntry(AttributeKey.stringKey(GenAiSpan.PROVIDER_NAME), "openai")
						.containsEntry(AttributeKey.stringKey(GenAiSpan.REQUEST_MODEL), "gpt-t")
						.containsEntry(AttributeKey.stringKey(GenAiSpan.INPUT_TOKENS), "7")
						.containsEntry(AttributeKey.stringKey(GenAiSpan.OUTPUT_TOKENS), "3");
				}));
	}

	private static void answer(HttpExchange exchange, String body) throws IOException {
		String text = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
		String label = text.replaceAll("(?s).*\"(?:content|text)\":\"([^\"]*)\".*", "$1");
		String traceparent = exchange.getRequestHeaders().getFirst("traceparent");
		if (traceparent != null) {
			traceparents.put(label, traceparent);
		}
		String requestId = exchange.getRequestHeaders().getFirst(RequestId.HEADER);
		if (requestId != null) {
			requestIds.put(label, requestId);
		}
		byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
		exchange.getResponseHeaders().set("Content-Type", "application/json");
		exchange.sendResponseHeaders(200, bytes.length);
		try (OutputStream out = exchange.getResponseBody()) {
			out.write(bytes);
		}
	}

	private static String traceparent(String traceId, String spanId, String flags) {
		return "00-" + traceId + "-" + spanId + "-" + flags;
	}

	private static HttpResponse<String> post(String path, String body, String traceparent) {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(gateway.baseUrl() + path))
			.timeout(Duration.ofSeconds(30))
			.header("Content-Type", "application/json")
			.header("Authorization", KEY);
		if (traceparent != null) {
			request.header("traceparent", traceparent);
		}
		return Http.send(request.POST(HttpRequest.BodyPublishers.ofString(body)).build());
	}

	private static String chat(String model, String content) {
		return "{\"model\":\"" + model + "\",\"messages\":[{\"role\":\"user\",\"content\":\"" + content
				+ "\"}],\"max_tokens\":4}";
	}

	/** Keeps every span the gateway ends, as an exporter would send them. */
	@Configuration(proxyBeanMethods = false)
	static class SpanCapture {

		@Bean
		SpanExporter capturingSpanExporter() {
			return new SpanExporter() {

				@Override
				public CompletableResultCode export(Collection<SpanData> batch) {
					spans.addAll(batch);
					return CompletableResultCode.ofSuccess();
				}

				@Override
				public CompletableResultCode flush() {
					return CompletableResultCode.ofSuccess();
				}

				@Override
				public CompletableResultCode shutdown() {
					return CompletableResultCode.ofSuccess();
				}

			};
		}

	}

}
