package dev.junction.gateway.cache;

import java.time.Duration;
import java.util.List;
import java.util.Set;

import dev.junction.gateway.pipeline.Attempt;
import dev.junction.gateway.pipeline.ChatExchange;
import dev.junction.gateway.pipeline.ChatExchange.CacheStatus;
import dev.junction.gateway.pipeline.FakeNext;
import dev.junction.gateway.provider.ChatChunk;
import dev.junction.gateway.provider.ChatResult;
import dev.junction.gateway.provider.ProviderRegistry;
import dev.junction.gateway.provider.Usage;
import dev.junction.gateway.routing.Route;
import dev.junction.gateway.routing.Target;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.test.StepVerifier;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

class ResponseCacheStageTests {

	private static final String REQUEST = "{\"model\":\"a/x\",\"seed\":1,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";

	private final ResponseCacheStage stage = new ResponseCacheStage(new LocalResponseStore(Duration.ofMinutes(1), 100),
			new CachePolicy(null, Set.of(), new ProviderRegistry()), new JsonMapper(), new SimpleMeterRegistry());

	private final ChatResult answer = FakeNext.result("cached", new Usage(3, 4));

	private static ChatExchange exchange(String json) {
		return FakeNext.routed(FakeNext.exchange(json), new Route("a/x", List.of(new Target("a", "x"))));
	}

	private static Attempt attempt(ChatExchange exchange) {
		return Attempt.of(exchange.request()).to(new Target("a", "x"));
	}

	@Test
	void answersAnIdenticalRequestFromTheCache() {
		FakeNext<ChatResult> next = FakeNext.complete((attempt) -> Mono.just(this.answer));
		ChatExchange first = exchange(REQUEST);
		StepVerifier.create(this.stage.apply(first, attempt(first), next))
			.expectNext(this.answer)
			.expectComplete()
			.verify(Duration.ofSeconds(5));
		ChatExchange second = exchange(
				REQUEST.replace("{\"model\":\"a/x\",\"seed\":1", "{\"seed\":1,\"model\":\"a/x\""));
		StepVerifier.create(this.stage.apply(second, attempt(second), next))
			.expectNext(this.answer)
			.expectComplete()
			.verify(Duration.ofSeconds(5));
		assertThat(next.attempts()).hasSize(1);
		assertThat(first.cacheStatus()).isEqualTo(CacheStatus.MISS);
		assertThat(second.cacheStatus()).isEqualTo(CacheStatus.HIT);
		assertThat(second.servedFromCache()).isTrue();
	}

	@Test
	void identicalRequestsInFlightTogetherMakeOneCall() {
		Sinks.One<ChatResult> upstream = Sinks.one();
		FakeNext<ChatResult> next = FakeNext.complete((attempt) -> upstream.asMono());
		ChatExchange first = exchange(REQUEST);
		ChatExchange second = exchange(REQUEST);
		Mono<ChatResult> both = Mono.zip(Mono.fromDirect(this.stage.apply(first, attempt(first), next)),
				Mono.fromDirect(this.stage.apply(second, attempt(second), next)), (a, b) -> b);
		StepVerifier.create(both)
			.then(() -> upstream.tryEmitValue(this.answer))
			.expectNext(this.answer)
			.expectComplete()
			.verify(Duration.ofSeconds(5));
		assertThat(next.attempts()).hasSize(1);
		assertThat(second.servedFromCache()).isTrue();
	}

	@Test
	void aFailedCallIsNeitherCachedNorSharedWithTheNextRequest() {
		Sinks.One<ChatResult> failing = Sinks.one();
		java.util.concurrent.atomic.AtomicInteger calls = new java.util.concurrent.atomic.AtomicInteger();
		FakeNext<ChatResult> next = FakeNext
			.complete((attempt) -> (calls.incrementAndGet() == 1) ? failing.asMono() : Mono.just(this.answer));
		ChatExchange first = exchange(REQUEST);
		StepVerifier.create(this.stage.apply(first, attempt(first), next))
			.then(() -> failing.tryEmitError(new IllegalStateException("upstream failed")))
			.expectError(IllegalStateException.class)
			.verify(Duration.ofSeconds(5));
		ChatExchange second = exchange(REQUEST);
		StepVerifier.create(this.stage.apply(second, attempt(second), next))
			.expectNext(this.answer)
			.expectComplete()
			.verify(Duration.ofSeconds(5));
		assertThat(next.attempts()).hasSize(2);
		assertThat(second.cacheStatus()).isEqualTo(CacheStatus.MISS);
	}

	@Test
	void theSharedCallRunsToTheEndWhenItsFirstClientGoesAway() {
		Sinks.One<ChatResult> upstream = Sinks.one();
		FakeNext<ChatResult> next = FakeNext.complete((attempt) -> upstream.asMono());
		ChatExchange first = exchange(REQUEST);
		StepVerifier.create(this.stage.apply(first, attempt(first), next)).thenCancel().verify(Duration.ofSeconds(5));
		ChatExchange second = exchange(REQUEST);
		StepVerifier.create(this.stage.apply(second, attempt(second), next))
			.then(() -> upstream.tryEmitValue(this.answer))
			.expectNext(this.answer)
			.expectComplete()
			.verify(Duration.ofSeconds(5));
		assertThat(next.attempts()).hasSize(1);
		assertThat(second.servedFromCache()).isTrue();
	}

	@Test
	void passesStreamsThroughUntouched() {
		FakeNext<ChatChunk> next = FakeNext.stream((attempt) -> Flux.just(FakeNext.chunk("a"), FakeNext.chunk("b")));
		ChatExchange exchange = exchange(REQUEST);
		for (int i = 0; i < 2; i++) {
			StepVerifier.create(this.stage.apply(exchange, attempt(exchange), next))
				.expectNextCount(2)
				.expectComplete()
				.verify(Duration.ofSeconds(5));
		}
		assertThat(next.attempts()).hasSize(2);
		assertThat(exchange.cacheStatus()).isNull();
	}

}
