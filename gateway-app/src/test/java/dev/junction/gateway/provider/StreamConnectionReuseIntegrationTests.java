package dev.junction.gateway.provider;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.junction.gateway.support.GatewayFixture;
import dev.junction.gateway.support.Http;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Streams read the provider's answer to its end, so that one connection to the provider
 * carries stream after stream (a new connection per stream would mean a TLS handshake per
 * stream); a provider that does not end its body after the last event still has its
 * stream end, whole, soon after.
 */
class StreamConnectionReuseIntegrationTests {

	private static final String CHUNK = "data: {\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"created\":1,"
			+ "\"model\":\"gpt-4o-mini\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"ok\"},"
			+ "\"finish_reason\":null}]}\n\n";

	private static final String DONE = "data: [DONE]\n\n";

	private static final String AFTER_DONE = "data: {\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\","
			+ "\"created\":1,\"model\":\"gpt-4o-mini\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"late\"},"
			+ "\"finish_reason\":null}]}\n\n";

	private static final String RESPONSES = event("response.created",
			"{\"type\":\"response.created\",\"sequence_number\":0,\"response\":{\"id\":\"resp_1\",\"object\":\"response\","
					+ "\"status\":\"in_progress\",\"output\":[]}}")
			+ event("response.output_text.delta",
					"{\"type\":\"response.output_text.delta\",\"sequence_number\":1,\"item_id\":\"msg_1\","
							+ "\"output_index\":0,\"content_index\":0,\"delta\":\"Hi\"}")
			+ event("response.completed",
					"{\"type\":\"response.completed\",\"sequence_number\":2,\"response\":{\"id\":\"resp_1\","
							+ "\"object\":\"response\",\"status\":\"completed\",\"output\":[],\"usage\":{\"input_tokens\":3,"
							+ "\"output_tokens\":1,\"total_tokens\":4}}}");

	private static final String MESSAGES = event("message_start",
			"{\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\","
					+ "\"model\":\"claude-haiku-4-5\",\"content\":[],\"stop_reason\":null,"
					+ "\"usage\":{\"input_tokens\":3,\"output_tokens\":0}}}")
			+ event("content_block_start",
					"{\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}")
			+ event("content_block_delta",
					"{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"Hi\"}}")
			+ event("content_block_stop", "{\"type\":\"content_block_stop\",\"index\":0}")
			+ event("message_delta",
					"{\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"},\"usage\":{\"output_tokens\":1}}")
			+ event("message_stop", "{\"type\":\"message_stop\"}");

	/** The client port of each request the provider received, in order. */
	private static final List<Integer> ports = new CopyOnWriteArrayList<>();

	private static DisposableServer upstream;

	private static GatewayFixture gateway;

	@BeforeAll
	static void start() {
		upstream = HttpServer.create()
			.host("127.0.0.1")
			.port(0)
			.handle((request, response) -> request.receive().then().then(Mono.defer(() -> {
				ports.add(request.remoteAddress().getPort());
				String uri = request.uri();
				Flux<String> events;
				if (uri.startsWith("/lingering/")) {
					// The last event, one that should never be, then a body that does not
					// end.
					events = Flux.just(CHUNK, DONE, AFTER_DONE)
						.concatWith(Mono.delay(Duration.ofSeconds(30)).thenReturn(""));
				}
				else if (uri.endsWith("/responses")) {
					events = Flux.just(RESPONSES);
				}
				else if (uri.endsWith("/messages")) {
					events = Flux.just(MESSAGES);
				}
				else {
					events = Flux.just(CHUNK, CHUNK, DONE);
				}
				return response.header("content-type", "text/event-stream").sendString(events).then();
			})))
			.bindNow();
		String base = "http://127.0.0.1:" + upstream.port();
		gateway = GatewayFixture.with("junction.gateway.cache.enabled=false")
			.openAi("openai", base + "/v1", "sk-x")
			.properties("junction.gateway.providers.openai.native-responses=true")
			.anthropic("claude", base, "sk-ant-x")
			.openAi("lingering", base + "/lingering/v1", "sk-x")
			.start();
	}

	@AfterAll
	static void stop() {
		gateway.close();
		upstream.disposeNow();
	}

	@BeforeEach
	void forget() {
		ports.clear();
	}

	@Test
	void carriesChatCompletionStreamsOverOneConnection() {
		for (int i = 0; i < 5; i++) {
			HttpResponse<String> response = post("/v1/chat/completions", Map.of(), "openai/gpt-4o-mini");
			assertThat(response.statusCode()).isEqualTo(200);
			assertThat(response.body()).startsWith(CHUNK + CHUNK).endsWith(DONE);
		}
		assertConnectionsReused();
	}

	@Test
	void carriesResponsesStreamsOverOneConnection() {
		for (int i = 0; i < 5; i++) {
			HttpResponse<String> response = Http.post(gateway.baseUrl() + "/v1/responses", null,
					"{\"model\":\"openai/gpt-4o-mini\",\"stream\":true,\"input\":\"hi\"}");
			assertThat(response.statusCode()).isEqualTo(200);
			assertThat(response.body()).contains("event: response.completed").doesNotContain("error");
		}
		assertConnectionsReused();
	}

	@Test
	void carriesMessagesStreamsOverOneConnection() {
		for (int i = 0; i < 5; i++) {
			HttpResponse<String> response = Http.postWithHeaders(gateway.baseUrl() + "/v1/messages",
					Map.of("anthropic-version", "2023-06-01"), "{\"model\":\"claude/claude-haiku-4-5\","
							+ "\"max_tokens\":50,\"stream\":true,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");
			assertThat(response.statusCode()).isEqualTo(200);
			assertThat(response.body()).contains("event: message_stop").doesNotContain("event: error");
		}
		assertConnectionsReused();
	}

	@Test
	void carriesChatCompletionStreamsToAnthropicOverOneConnection() {
		for (int i = 0; i < 5; i++) {
			HttpResponse<String> response = post("/v1/chat/completions", Map.of(), "claude/claude-haiku-4-5");
			assertThat(response.statusCode()).isEqualTo(200);
			assertThat(response.body()).endsWith(DONE).doesNotContain("error");
		}
		assertConnectionsReused();
	}

	@Test
	void endsAStreamWholeWhenTheProviderDoesNotEndItsBodyAfterTheLastEvent() {
		long start = System.nanoTime();
		HttpResponse<String> response = post("/v1/chat/completions", Map.of(), "lingering/gpt-4o-mini");
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.body()).isEqualTo(CHUNK + DONE);
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(StreamEnd.GRACE.plusSeconds(4));
	}

	/**
	 * Five streams over at most two connections: a connection closed after each stream
	 * gives five. A stream may find the previous one's connection not yet back in the
	 * pool (the answer to the client can end just before it is returned) and open a
	 * second one.
	 */
	private static void assertConnectionsReused() {
		assertThat(ports).hasSize(5);
		assertThat(ports.stream().distinct().count()).isLessThanOrEqualTo(2);
	}

	private static HttpResponse<String> post(String path, Map<String, String> headers, String model) {
		return Http.postWithHeaders(gateway.baseUrl() + path, headers,
				"{\"model\":\"" + model + "\",\"stream\":true,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");
	}

	private static String event(String name, String data) {
		return "event: " + name + "\ndata: " + data + "\n\n";
	}

}
