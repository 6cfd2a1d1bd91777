package dev.junction.gateway.provider.openai;

import java.net.http.HttpResponse;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.junction.gateway.support.GatewayFixture;
import dev.junction.gateway.support.Http;
import dev.junction.gateway.support.Json;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What an OpenAI-compatible upstream receives: the client's request with the provider's
 * model, byte for byte where nothing else changes, and usage asked for on streams.
 */
class OpenAiRequestBodyIntegrationTests {

	private static final String ANSWER = "{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion\",\"created\":1,"
			+ "\"model\":\"gpt-4o-mini\",\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\","
			+ "\"content\":\"ok\"},\"finish_reason\":\"stop\"}],"
			+ "\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":1,\"total_tokens\":4}}";

	private static final String STREAM = "data: {\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\","
			+ "\"created\":1,\"model\":\"gpt-4o-mini\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"ok\"},"
			+ "\"finish_reason\":\"stop\"}]}\n\ndata: {\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\","
			+ "\"created\":1,\"model\":\"gpt-4o-mini\",\"choices\":[],"
			+ "\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":1,\"total_tokens\":4}}\n\ndata: [DONE]\n\n";

	private static final List<String> received = new CopyOnWriteArrayList<>();

	private static DisposableServer upstream;

	private static GatewayFixture gateway;

	@BeforeAll
	static void start() {
		upstream = HttpServer.create()
			.host("127.0.0.1")
			.port(0)
			.handle((request, response) -> request.receive().aggregate().asString().flatMap((body) -> {
				received.add(body);
				boolean stream = Json.parse(body).path("stream").asBoolean(false);
				return response.header("content-type", stream ? "text/event-stream" : "application/json")
					.sendString(Mono.just(stream ? STREAM : ANSWER))
					.then();
			}))
			.bindNow();
		gateway = GatewayFixture.with("junction.gateway.cache.enabled=false")
			.openAi("up", "http://127.0.0.1:" + upstream.port() + "/v1", "sk-up")
			.start();
	}

	@AfterAll
	static void stop() {
		gateway.close();
		upstream.disposeNow();
	}

	@BeforeEach
	void forget() {
		received.clear();
	}

	@Test
	void sendsTheClientsOwnBytesWithTheProvidersModel() {
		String client = "{ \"temperature\": 1.0, \"model\" : \"up/gpt-4o-mini\",\n \"messages\": [{\"role\":\"user\","
				+ "\"content\":\"h\u00e9llo \u2713\"}], \"metadata\": {\"b\": 2, \"a\": 1}, \"vendor_field\": [1e2] }";
		HttpResponse<String> answer = Http.post(gateway.baseUrl() + "/v1/chat/completions", null, client);
		assertThat(answer.statusCode()).isEqualTo(200);
		assertThat(received).containsExactly(client.replace("\"up/gpt-4o-mini\"", "\"gpt-4o-mini\""));
	}

	@Test
	void streamsAskForUsageWhereTheClientDidNot() {
		String client = "{\"model\":\"up/gpt-4o-mini\",\"stream\":true,\"messages\":[{\"role\":\"user\","
				+ "\"content\":\"hi\"}]}";
		HttpResponse<String> answer = Http.post(gateway.baseUrl() + "/v1/chat/completions", null, client);
		assertThat(answer.statusCode()).isEqualTo(200);
		JsonNode sent = Json.parse(received.get(0));
		assertThat(sent.path("model").asString()).isEqualTo("gpt-4o-mini");
		assertThat(sent.path("stream_options").path("include_usage").asBoolean()).isTrue();

		received.clear();
		String asking = "{\"model\":\"up/gpt-4o-mini\",\"stream\":true,\"stream_options\":{\"include_usage\":true},"
				+ "\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";
		assertThat(Http.post(gateway.baseUrl() + "/v1/chat/completions", null, asking).statusCode()).isEqualTo(200);
		assertThat(received).containsExactly(asking.replace("\"up/gpt-4o-mini\"", "\"gpt-4o-mini\""));
	}

	@Test
	void aBodyWithATopLevelKeyTwiceIsSentAsTheGatewayReadIt() {
		String client = "{\"model\":\"up/gpt-4o-mini\",\"max_tokens\":900,\"max_tokens\":5,"
				+ "\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";
		assertThat(Http.post(gateway.baseUrl() + "/v1/chat/completions", null, client).statusCode()).isEqualTo(200);
		assertThat(received).hasSize(1);
		assertThat(received.get(0)).doesNotContain("900");
		assertThat(Json.parse(received.get(0)).path("max_tokens").asInt()).isEqualTo(5);
	}

}
