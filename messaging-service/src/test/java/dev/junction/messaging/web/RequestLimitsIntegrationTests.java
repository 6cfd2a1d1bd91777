package dev.junction.messaging.web;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;

import dev.junction.messaging.support.IntegrationTestSupport;
import dev.junction.messaging.support.TestHttp;
import dev.junction.messaging.support.TickingClockConfiguration;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.netty.ByteBufFlux;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Import;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Request timeout, body limit and rate limits, with small limits so they are reached
 * quickly.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "junction.messaging.admin-key=" + IntegrationTestSupport.ADMIN_KEY,
				"junction.messaging.http.request-timeout=5s", "junction.messaging.http.max-body-size=2KB",
				"junction.messaging.rate-limit.messages=3", "junction.messaging.rate-limit.events=2",
				"junction.messaging.rate-limit.instances=1000", "junction.messaging.rate-limit.general=1000",
				"logging.level.io.zonky.test=warn" })
@Import({ TickingClockConfiguration.class, RequestLimitsIntegrationTests.SlowEndpoint.class })
class RequestLimitsIntegrationTests extends IntegrationTestSupport {

	@Test
	void answers408WhenARequestOutlastsTheTimeout() {
		JsonNode problem = get(this.admin, "/test/slow", HttpStatus.REQUEST_TIMEOUT);
		assertProblem(problem, 408, "request-timeout");
		this.admin.get().uri("/test/fast").exchange().expectStatus().isOk().expectBody(Void.class);
	}

	@Test
	void answers413ForABodyOverTheLimit() {
		String name = "x".repeat(3000);
		JsonNode problem = post(this.admin, "/instances", Map.of("name", name, "channel", "sms"),
				HttpStatus.CONTENT_TOO_LARGE);
		assertProblem(problem, 413, "payload-too-large");
		post(this.admin, "/instances", Map.of("name", uniqueName("small"), "channel", "sms"), HttpStatus.CREATED);
	}

	@Test
	void answers413ForAChunkedBodyWithoutContentLength() {
		byte[] chunk = ("{\"name\":\"" + "y".repeat(1000)).getBytes(StandardCharsets.UTF_8);
		Flux<io.netty.buffer.ByteBuf> chunks = Flux.range(0, 4).map((i) -> Unpooled.wrappedBuffer(chunk));
		Integer status = TestHttp.client(this.port)
			.headers((headers) -> headers.set("x-api-key", ADMIN_KEY)
				.set(HttpHeaders.CONTENT_TYPE, MediaType.APPLICATION_JSON_VALUE)
				.set(HttpHeaders.TRANSFER_ENCODING, "chunked"))
			.post()
			.uri("http://localhost:" + this.port + "/api/v2/instances")
			.send(ByteBufFlux.fromInbound(chunks))
			.responseSingle((response, body) -> Mono.just(response.status().code()))
			.block(Duration.ofSeconds(20));
		assertThat(status).isEqualTo(413);
	}

	@Test
	void limitsEachKeyPerRouteGroupAndSaysWhenToRetry() {
		WebTestClient client = client(createKey(java.util.List.of("write"), java.util.List.of()));
		UUID chat = createChat(createInstance());
		for (int i = 0; i < 3; i++) {
			client.get()
				.uri("/messages?chatId={id}", chat)
				.exchange()
				.expectStatus()
				.isOk()
				.expectHeader()
				.valueEquals("X-RateLimit-Limit", "3")
				.expectHeader()
				.valueEquals("X-RateLimit-Remaining", Integer.toString(2 - i))
				.expectHeader()
				.exists("X-RateLimit-Reset")
				.expectBody(Void.class);
		}
		JsonNode limited = client.get()
			.uri("/chats/{id}/messages", chat)
			.exchange()
			.expectStatus()
			.isEqualTo(HttpStatus.TOO_MANY_REQUESTS)
			.expectHeader()
			.value(HttpHeaders.RETRY_AFTER, (value) -> assertThat(Long.parseLong(value)).isPositive())
			.expectHeader()
			.valueEquals("X-RateLimit-Remaining", "0")
			.expectBody(JsonNode.class)
			.returnResult()
			.getResponseBody();
		assertThat(assertProblem(limited, 429, "rate-limited").get("detail").asString()).contains("messages");
		// other groups and other keys have their own buckets
		client.get().uri("/chats/{id}", chat).exchange().expectStatus().isOk().expectBody(Void.class);
		client.get().uri("/events").exchange().expectStatus().isOk().expectBody(Void.class);
		this.admin.get().uri("/messages?chatId={id}", chat).exchange().expectStatus().isOk().expectBody(Void.class);
	}

	/** Endpoints that exist only in this test. */
	@TestConfiguration(proxyBeanMethods = false)
	@RestController
	static class SlowEndpoint {

		@GetMapping("/api/v2/test/slow")
		Mono<String> slow() {
			return Mono.delay(Duration.ofSeconds(10)).thenReturn("late");
		}

		@GetMapping("/api/v2/test/fast")
		Mono<String> fast() {
			return Mono.just("fast");
		}

	}

}
