package dev.junction.gateway.resilience;

import java.time.Duration;

import dev.junction.gateway.error.DeniedException;
import dev.junction.gateway.pipeline.Attempt;
import dev.junction.gateway.pipeline.ChatExchange;
import dev.junction.gateway.pipeline.FakeNext;
import dev.junction.gateway.provider.ChatChunk;
import dev.junction.gateway.provider.ChatResult;
import dev.junction.gateway.provider.Usage;
import dev.junction.gateway.routing.Target;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

import static org.assertj.core.api.Assertions.assertThat;

class CircuitBreakerStageTests {

	private final CircuitBreakerRegistry breakers = CircuitBreakerRegistry.ofDefaults();

	private final CircuitBreakerStage stage = new CircuitBreakerStage(this.breakers);

	private final ChatExchange exchange = FakeNext
		.exchange("{\"model\":\"a/x\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");

	private final Attempt attempt = Attempt.of(this.exchange.request()).to(new Target("a", "x"));

	@Test
	void recordsACallOnTheBreakerOfItsProviderAndKey() {
		FakeNext<ChatResult> next = FakeNext.complete((attempt) -> Mono.just(FakeNext.result("ok", Usage.NONE)));
		StepVerifier.create(this.stage.apply(this.exchange, this.attempt, next))
			.expectNextCount(1)
			.expectComplete()
			.verify(Duration.ofSeconds(5));
		assertThat(this.breakers.find("a:nokey")).hasValueSatisfying(
				(breaker) -> assertThat(breaker.getMetrics().getNumberOfSuccessfulCalls()).isEqualTo(1));
	}

	@Test
	void refusesAStreamWhileTheBreakerIsOpenWithoutCallingTheProvider() {
		this.breakers.circuitBreaker("a:nokey").transitionToOpenState();
		FakeNext<ChatChunk> next = FakeNext.stream((attempt) -> Flux.just(FakeNext.chunk("ok")));
		StepVerifier.create(this.stage.apply(this.exchange, this.attempt, next))
			.expectErrorSatisfies((error) -> assertThat(error).isInstanceOf(DeniedException.class)
				.hasMessageContaining("'a:nokey' is open"))
			.verify(Duration.ofSeconds(5));
		assertThat(next.attempts()).isEmpty();
	}

}
