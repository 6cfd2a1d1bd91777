package dev.junction.gateway.chat;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

import dev.junction.gateway.support.GatewayFixture;
import dev.junction.gateway.support.Http;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A provider's timeout on streams bounds the wait for the first chunk and each wait for
 * the next one, not the whole stream.
 */
class StreamTimeoutIntegrationTests {

	private static final String CHUNK = "data: {\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"created\":1,"
			+ "\"model\":\"gpt-4o-mini\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"ok\"},"
			+ "\"finish_reason\":null}]}\n\n";

	private static final String DONE = "data: [DONE]\n\n";

	private static final String MESSAGE_START = "event: message_start\ndata: {\"type\":\"message_start\",\"message\":"
			+ "{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"claude-haiku-4-5\","
			+ "\"content\":[],\"stop_reason\":null,\"usage\":{\"input_tokens\":3,\"output_tokens\":0}}}\n\n";

	private static DisposableServer upstream;

	private static GatewayFixture gateway;

	@BeforeAll
	static void start() {
		upstream = HttpServer.create()
			.host("127.0.0.1")
			.port(0)
			.handle((request, response) -> request.receive().then().then(Mono.defer(() -> {
				Flux<String> events;
				if (request.uri().startsWith("/astall/")) {
					events = Flux.just(MESSAGE_START).concatWith(Mono.delay(Duration.ofSeconds(10)).thenReturn(""));
				}
				else if (request.uri().startsWith("/stall/")) {
					// One chunk, then nothing for far longer than the timeout.
					events = Flux.just(CHUNK).concatWith(Mono.delay(Duration.ofSeconds(10)).thenReturn(DONE));
				}
				else if (request.uri().startsWith("/late/")) {
					events = Mono.delay(Duration.ofSeconds(10)).thenReturn(CHUNK + DONE).flux();
				}
				else {
					// Six chunks 200 ms apart: longer than the timeout in all, never
					// between two.
					events = Flux.interval(Duration.ZERO, Duration.ofMillis(200))
						.take(6)
						.map((i) -> CHUNK)
						.concatWithValues(DONE);
				}
				return response.header("content-type", "text/event-stream").sendString(events).then();
			})))
			.bindNow();
		String base = "http://127.0.0.1:" + upstream.port();
		gateway = GatewayFixture.with("junction.gateway.cache.enabled=false")
			.openAi("stall", base + "/stall/v1", "sk-x")
			.openAi("late", base + "/late/v1", "sk-x")
			.openAi("steady", base + "/steady/v1", "sk-x")
			.anthropic("astall", base + "/astall", "sk-ant-x")
			.properties("junction.gateway.providers.stall.timeout=500ms",
					"junction.gateway.providers.late.timeout=500ms", "junction.gateway.providers.steady.timeout=500ms",
					"junction.gateway.providers.astall.timeout=500ms")
			.start();
	}

	@AfterAll
	static void stop() {
		gateway.close();
		upstream.disposeNow();
	}

	@Test
	void endsAStreamThatStallsAfterItsFirstChunkWithATimeoutEvent() {
		long start = System.nanoTime();
		HttpResponse<String> response = stream("stall");
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.body()).startsWith(CHUNK)
			.contains("data: {\"error\":")
			.contains("upstream_timeout")
			.doesNotContain("[DONE]");
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
	}

	@Test
	void endsAMessagesStreamThatStallsWithAnErrorEvent() {
		long start = System.nanoTime();
		HttpResponse<String> response = Http.postWithHeaders(gateway.baseUrl() + "/v1/messages",
				Map.of("anthropic-version", "2023-06-01"), "{\"model\":\"astall/claude-haiku-4-5\",\"max_tokens\":50,"
						+ "\"stream\":true,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.body()).startsWith("event: message_start")
			.contains("event: error")
			.doesNotContain("message_stop");
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
	}

	@Test
	void answersAStreamWhoseFirstChunkIsLateWith504() {
		long start = System.nanoTime();
		HttpResponse<String> response = stream("late");
		assertThat(response.statusCode()).isEqualTo(504);
		assertThat(response.body()).contains("upstream_timeout");
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
	}

	@Test
	void letsAStreamRunLongerThanItsTimeoutWhileChunksKeepComing() {
		HttpResponse<String> response = stream("steady");
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.body().split("data: \\{\"id\"", -1)).hasSize(7);
		assertThat(response.body()).endsWith(DONE).doesNotContain("error");
	}

	private static HttpResponse<String> stream(String provider) {
		return Http.post(gateway.baseUrl() + "/v1/chat/completions", null, "{\"model\":\"" + provider
				+ "/gpt-4o-mini\",\"stream\":true,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");
	}

}
