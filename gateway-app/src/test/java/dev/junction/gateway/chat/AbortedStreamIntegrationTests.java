package dev.junction.gateway.chat;

import java.time.Duration;

import dev.junction.gateway.support.GatewayFixture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.netty.ByteBufFlux;
import reactor.netty.DisposableServer;
import reactor.netty.http.client.HttpClient;
import reactor.netty.http.server.HttpServer;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Clients that go away in the middle of a stream cost the gateway nothing: what was on
 * its way to them is freed, with Netty's leak detector watching every buffer
 * ({@link dev.junction.testsupport.NettyLeaks} sets it so for every test).
 */
@ExtendWith(OutputCaptureExtension.class)
class AbortedStreamIntegrationTests {

	private static final String CHUNK = "data: {\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"created\":1,"
			+ "\"model\":\"gpt-4o-mini\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"token \"},"
			+ "\"finish_reason\":null}]}\n\n";

	private static final String BODY = "{\"model\":\"burst/gpt-4o-mini\",\"stream\":true,"
			+ "\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";

	private static DisposableServer upstream;

	private static GatewayFixture gateway;

	@BeforeAll
	static void start() {
		// Thousands of chunks at once, so that many are on their way when the client
		// leaves.
		upstream = HttpServer.create()
			.host("127.0.0.1")
			.port(0)
			.handle((request, response) -> request.receive()
				.then()
				.then(response.header("content-type", "text/event-stream")
					.sendString(Flux.range(0, 3000).map((i) -> CHUNK).concatWithValues("data: [DONE]\n\n"))
					.then()))
			.bindNow();
		gateway = GatewayFixture.with("junction.gateway.cache.enabled=false")
			.openAi("burst", "http://127.0.0.1:" + upstream.port() + "/v1", "sk-burst")
			.start();
	}

	@AfterAll
	static void stop() {
		gateway.close();
		upstream.disposeNow();
	}

	@Test
	void leavesNoBufferUnreleasedWhenClientsLeaveMidStream(CapturedOutput output) throws InterruptedException {
		HttpClient client = HttpClient.create().headers((headers) -> headers.set("Content-Type", "application/json"));
		Flux.range(0, 300)
			.flatMap((i) -> stream(client).next().onErrorResume((ex) -> Mono.empty()), 16)
			.blockLast(Duration.ofSeconds(60));
		// Leaks are reported once their buffers are collected, at a later allocation.
		for (int round = 0; round < 3; round++) {
			System.gc();
			Thread.sleep(200);
			assertThat(stream(client).filter((text) -> text.contains("[DONE]")).blockFirst(Duration.ofSeconds(30)))
				.isNotNull();
		}
		assertThat(output.getAll()).doesNotContain("LEAK:");
	}

	private static Flux<String> stream(HttpClient client) {
		return client.post()
			.uri(gateway.baseUrl() + "/v1/chat/completions")
			.send(ByteBufFlux.fromString(Mono.just(BODY)))
			.responseContent()
			.asString();
	}

}
