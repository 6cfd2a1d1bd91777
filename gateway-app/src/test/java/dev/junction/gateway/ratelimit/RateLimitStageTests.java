package dev.junction.gateway.ratelimit;

import java.time.Duration;

import dev.junction.gateway.error.DeniedException;
import dev.junction.gateway.pipeline.Attempt;
import dev.junction.gateway.pipeline.ChatExchange;
import dev.junction.gateway.pipeline.FakeNext;
import dev.junction.gateway.provider.ChatChunk;
import dev.junction.gateway.provider.ChatResult;
import dev.junction.gateway.provider.Usage;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

import static org.assertj.core.api.Assertions.assertThat;

class RateLimitStageTests {

	private static final String REQUEST = "{\"model\":\"a/x\",\"max_tokens\":60,"
			+ "\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";

	private final RateLimitStage stage = new RateLimitStage(
			new RateLimits(100, 100, Duration.ofHours(1), 1024, true, "limits"),
			new LocalBucketStore(Duration.ofHours(2)), new SimpleMeterRegistry());

	private ChatExchange exchange() {
		return FakeNext.exchange(REQUEST);
	}

	@Test
	void settlesEachReservationOnTheUsageOfItsAnswer() {
		FakeNext<ChatResult> next = FakeNext.complete((attempt) -> Mono.just(FakeNext.result("ok", new Usage(5, 5))));
		// 60 reserved each time, 10 spent: three fit in a budget of 100.
		for (int i = 0; i < 3; i++) {
			ChatExchange exchange = exchange();
			StepVerifier.create(this.stage.apply(exchange, Attempt.of(exchange.request()), next))
				.expectNextCount(1)
				.expectComplete()
				.verify(Duration.ofSeconds(5));
			assertThat(exchange.rateLimit().remaining()).isEqualTo(99 - i);
		}
	}

	@Test
	void givesTheWholeReservationBackWhenTheClientGoesAwayMidStream() {
		FakeNext<ChatChunk> slow = FakeNext
			.stream((attempt) -> Flux.just(FakeNext.chunk("a")).concatWith(Flux.never()));
		ChatExchange first = exchange();
		StepVerifier.create(this.stage.apply(first, Attempt.of(first.request()), slow))
			.expectNextCount(1)
			.thenCancel()
			.verify(Duration.ofSeconds(5));
		FakeNext<ChatResult> next = FakeNext.complete((attempt) -> Mono.just(FakeNext.result("ok", new Usage(30, 30))));
		ChatExchange second = exchange();
		StepVerifier.create(this.stage.apply(second, Attempt.of(second.request()), next))
			.expectNextCount(1)
			.expectComplete()
			.verify(Duration.ofSeconds(5));
		ChatExchange third = exchange();
		StepVerifier.create(this.stage.apply(third, Attempt.of(third.request()), next))
			.expectErrorSatisfies((error) -> assertThat(error).isInstanceOf(DeniedException.class)
				.hasMessageContaining("Not enough tokens"))
			.verify(Duration.ofSeconds(5));
		assertThat(next.attempts()).hasSize(1);
	}

}
