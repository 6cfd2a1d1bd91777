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

	private final RateLimitStage stage = new RateLimitStage(
			new RateLimits(100, 100, Duration.ofHours(1), 1024, true, "limits"),
			new LocalBucketStore(Duration.ofHours(2)), new SimpleMeterRegistry());

	private static ChatExchange exchange(int maxTokens) {
		return FakeNext.exchange("{\"model\":\"a/x\",\"max_tokens\":" + maxTokens
				+ ",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");
	}

	@Test
	void settlesEachReservationOnTheUsageOfItsAnswer() {
		FakeNext<ChatResult> next = FakeNext.complete((attempt) -> Mono.just(FakeNext.result("ok", new Usage(5, 5))));
		// 60 reserved each time, 10 spent: three fit in a budget of 100.
		for (int i = 0; i < 3; i++) {
			ChatExchange exchange = exchange(60);
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
		ChatExchange first = exchange(60);
		StepVerifier.create(this.stage.apply(first, Attempt.of(first.request()), slow))
			.expectNextCount(1)
			.thenCancel()
			.verify(Duration.ofSeconds(5));
		FakeNext<ChatResult> next = FakeNext.complete((attempt) -> Mono.just(FakeNext.result("ok", new Usage(30, 30))));
		ChatExchange second = exchange(60);
		StepVerifier.create(this.stage.apply(second, Attempt.of(second.request()), next))
			.expectNextCount(1)
			.expectComplete()
			.verify(Duration.ofSeconds(5));
		ChatExchange third = exchange(60);
		StepVerifier.create(this.stage.apply(third, Attempt.of(third.request()), next))
			.expectErrorSatisfies((error) -> assertThat(error).isInstanceOf(DeniedException.class)
				.hasMessageContaining("Not enough tokens"))
			.verify(Duration.ofSeconds(5));
		assertThat(next.attempts()).hasSize(1);
	}

	@Test
	void givesBackWhatAStreamTheClientLeftReservedOnceOnly() {
		FakeNext<ChatChunk> held = FakeNext
			.stream((attempt) -> Flux.just(FakeNext.chunk("a")).concatWith(Flux.never()));
		ChatExchange left = exchange(60);
		StepVerifier.Step<ChatChunk> leaving = StepVerifier
			.create(this.stage.apply(left, Attempt.of(left.request()), held))
			.expectNextCount(1);
		ChatExchange staying = exchange(30);
		StepVerifier.create(this.stage.apply(staying, Attempt.of(staying.request()), held))
			.expectNextCount(1)
			.then(() -> leaving.thenCancel().verify(Duration.ofSeconds(5)))
			.then(() -> {
				// 100 less the 30 still reserved: 70 left, not enough for 80.
				ChatExchange more = exchange(80);
				StepVerifier.create(this.stage.apply(more, Attempt.of(more.request()), held))
					.expectErrorSatisfies((error) -> assertThat(error).isInstanceOf(DeniedException.class)
						.hasMessageContaining("Not enough tokens"))
					.verify(Duration.ofSeconds(5));
			})
			.thenCancel()
			.verify(Duration.ofSeconds(5));
	}

}
