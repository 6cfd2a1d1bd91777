package dev.junction.gateway.resilience;

import java.time.Duration;
import java.util.List;

import dev.junction.gateway.error.UpstreamException;
import dev.junction.gateway.pipeline.Attempt;
import dev.junction.gateway.pipeline.ChatExchange;
import dev.junction.gateway.pipeline.FakeNext;
import dev.junction.gateway.provider.ChatChunk;
import dev.junction.gateway.provider.ChatResult;
import dev.junction.gateway.provider.Usage;
import dev.junction.gateway.routing.Route;
import dev.junction.gateway.routing.Target;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

import static org.assertj.core.api.Assertions.assertThat;

class FallbackStageTests {

	private static final Target A = new Target("a", "x");

	private static final Target B = new Target("b", "y");

	private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

	private final FallbackStage stage = new FallbackStage(this.registry);

	private final ChatExchange exchange = FakeNext.routed(
			FakeNext.exchange("{\"model\":\"fast\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}"),
			new Route("fast", List.of(A, B)));

	private final Attempt routed = Attempt.of(this.exchange.request()).to(A);

	@Test
	void sendsTheNextTargetAFreshAttemptWhenOneFailsTransiently() {
		ChatResult answer = FakeNext.result("from b", Usage.NONE);
		FakeNext<ChatResult> next = FakeNext.complete((attempt) -> A.equals(attempt.target())
				? Mono.error(UpstreamException.status("a", 503, null, null, "down", null)) : Mono.just(answer));
		StepVerifier.create(this.stage.apply(this.exchange, this.routed, next))
			.expectNext(answer)
			.expectComplete()
			.verify(Duration.ofSeconds(5));
		assertThat(next.attempts()).extracting(Attempt::target).containsExactly(A, B);
		assertThat(next.attempts()).extracting(Attempt::request).containsOnly(this.exchange.request());
		assertThat(this.registry.get(FallbackStage.FALLBACKS).tag("provider", "a").counter().count()).isEqualTo(1);
	}

	@Test
	void neverFallsBackOnAClientError() {
		FakeNext<ChatResult> next = FakeNext
			.complete((attempt) -> Mono.error(UpstreamException.status("a", 400, null, null, "bad", null)));
		StepVerifier.create(this.stage.apply(this.exchange, this.routed, next))
			.expectErrorSatisfies((error) -> assertThat(error).isInstanceOf(UpstreamException.class))
			.verify(Duration.ofSeconds(5));
		assertThat(next.attempts()).extracting(Attempt::target).containsExactly(A);
	}

	@Test
	void fallsBackOnAStreamThatFailsBeforeItsFirstChunk() {
		FakeNext<ChatChunk> next = FakeNext.stream((attempt) -> A.equals(attempt.target())
				? Flux.error(UpstreamException.status("a", 503, null, null, "down", null))
				: Flux.just(FakeNext.chunk("b")));
		StepVerifier.create(this.stage.apply(this.exchange, this.routed, next))
			.expectNextCount(1)
			.expectComplete()
			.verify(Duration.ofSeconds(5));
		assertThat(next.attempts()).extracting(Attempt::target).containsExactly(A, B);
	}

	@Test
	void neverFallsBackOnceAStreamsFirstChunkHasGoneOut() {
		UpstreamException failure = UpstreamException.status("a", 503, null, null, "down", null);
		FakeNext<ChatChunk> next = FakeNext
			.stream((attempt) -> Flux.just(FakeNext.chunk("a")).concatWith(Flux.error(failure)));
		StepVerifier.create(this.stage.apply(this.exchange, this.routed, next))
			.expectNextCount(1)
			.expectErrorSatisfies((error) -> assertThat(error).isSameAs(failure))
			.verify(Duration.ofSeconds(5));
		assertThat(next.attempts()).extracting(Attempt::target).containsExactly(A);
	}

}
