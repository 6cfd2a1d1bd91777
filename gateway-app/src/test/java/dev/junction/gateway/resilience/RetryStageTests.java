package dev.junction.gateway.resilience;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import dev.junction.gateway.error.UpstreamException;
import dev.junction.gateway.pipeline.Attempt;
import dev.junction.gateway.pipeline.ChatExchange;
import dev.junction.gateway.pipeline.FakeNext;
import dev.junction.gateway.provider.ChatChunk;
import dev.junction.gateway.provider.ChatResult;
import dev.junction.gateway.provider.Usage;
import dev.junction.gateway.routing.Target;
import io.github.resilience4j.retry.RetryConfig;
import io.github.resilience4j.retry.RetryRegistry;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

import static org.assertj.core.api.Assertions.assertThat;

class RetryStageTests {

	private final RetryStage stage = new RetryStage(
			RetryRegistry.of(rules(RetryConfig.custom().maxAttempts(3).waitDuration(Duration.ofMillis(1)))));

	private final ChatExchange exchange = FakeNext
		.exchange("{\"model\":\"a/x\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");

	private final Attempt attempt = Attempt.of(this.exchange.request()).to(new Target("a", "x"));

	private static RetryConfig rules(RetryConfig.Builder<Object> builder) {
		GatewayRules.retry(builder);
		return builder.build();
	}

	@Test
	void retriesATransientFailureWithTheSameAttempt() {
		AtomicInteger calls = new AtomicInteger();
		ChatResult answer = FakeNext.result("ok", Usage.NONE);
		FakeNext<ChatResult> next = FakeNext.complete((attempt) -> (calls.incrementAndGet() < 3)
				? Mono.error(UpstreamException.status("a", 503, null, null, "down", null)) : Mono.just(answer));
		StepVerifier.create(this.stage.apply(this.exchange, this.attempt, next))
			.expectNext(answer)
			.expectComplete()
			.verify(Duration.ofSeconds(5));
		assertThat(next.attempts()).hasSize(3).containsOnly(this.attempt);
	}

	@Test
	void neverRetriesAClientError() {
		FakeNext<ChatResult> next = FakeNext
			.complete((attempt) -> Mono.error(UpstreamException.status("a", 400, null, null, "bad", null)));
		StepVerifier.create(this.stage.apply(this.exchange, this.attempt, next))
			.expectError(UpstreamException.class)
			.verify(Duration.ofSeconds(5));
		assertThat(next.attempts()).hasSize(1);
	}

	@Test
	void retriesAStreamThatFailsBeforeItsFirstChunk() {
		AtomicInteger calls = new AtomicInteger();
		FakeNext<ChatChunk> next = FakeNext.stream((attempt) -> (calls.incrementAndGet() < 2)
				? Flux.error(UpstreamException.status("a", 503, null, null, "down", null))
				: Flux.just(FakeNext.chunk("ok")));
		StepVerifier.create(this.stage.apply(this.exchange, this.attempt, next))
			.expectNextCount(1)
			.expectComplete()
			.verify(Duration.ofSeconds(5));
		assertThat(next.attempts()).hasSize(2);
	}

	@Test
	void neverRetriesAStreamOnceItsFirstChunkHasGoneOut() {
		UpstreamException failure = UpstreamException.status("a", 503, null, null, "down", null);
		FakeNext<ChatChunk> next = FakeNext
			.stream((attempt) -> Flux.just(FakeNext.chunk("a")).concatWith(Flux.error(failure)));
		StepVerifier.create(this.stage.apply(this.exchange, this.attempt, next))
			.expectNextCount(1)
			.expectErrorSatisfies(
					(error) -> assertThat(error).isInstanceOf(FirstChunkGuard.AfterFirstChunk.class).hasCause(failure))
			.verify(Duration.ofSeconds(5));
		assertThat(next.attempts()).hasSize(1);
	}

}
