package dev.junction.gateway.pipeline;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import dev.junction.gateway.error.DeniedException;
import dev.junction.gateway.error.UpstreamException;
import dev.junction.gateway.provider.ChatChunk;
import dev.junction.gateway.provider.ChatResult;
import dev.junction.gateway.provider.KeyPool;
import dev.junction.gateway.provider.ProviderKey;
import dev.junction.gateway.provider.ProviderLimiter;
import dev.junction.gateway.provider.ProviderRegistry;
import dev.junction.gateway.provider.Usage;
import dev.junction.gateway.provider.mock.MockChatProvider;
import dev.junction.gateway.routing.Target;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.test.StepVerifier;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

class PoolStageTests {

	private final KeyPool keys = new KeyPool("a",
			List.of(new ProviderKey("sk-zero", 1, null), new ProviderKey("sk-one", 1, null)), Duration.ofSeconds(30),
			Duration.ofSeconds(30));

	private final ProviderLimiter limiter = new ProviderLimiter("a", 1, 1, Duration.ofMillis(200), true);

	private final PoolStage stage;

	private final ChatExchange exchange = FakeNext
		.exchange("{\"model\":\"a/x\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");

	private final Attempt attempt = Attempt.of(this.exchange.request()).to(new Target("a", "x"));

	PoolStageTests() {
		ProviderRegistry providers = new ProviderRegistry();
		providers.register(new MockChatProvider("a", List.of("x"), new JsonMapper()), this.keys, this.limiter);
		this.stage = new PoolStage(providers);
	}

	@Test
	void sendsTheAttemptOnWithAKeyAndRecordsWhereItWent() {
		FakeNext<ChatResult> next = FakeNext.complete((attempt) -> Mono.just(FakeNext.result("ok", Usage.NONE)));
		StepVerifier.create(this.stage.apply(this.exchange, this.attempt, next))
			.expectNextCount(1)
			.expectComplete()
			.verify(Duration.ofSeconds(5));
		assertThat(next.attempts()).singleElement().satisfies((sent) -> {
			assertThat(sent.key()).isNotNull();
			assertThat(sent.target()).isEqualTo(this.attempt.target());
		});
		assertThat(this.attempt.key()).isNull();
		assertThat(this.exchange.target()).isEqualTo(new Target("a", "x"));
		assertThat(this.limiter.inFlight()).isZero();
	}

	@Test
	void sendsTheCallAgainWithAnotherKeyWhenTheUpstreamRefusesOne() {
		AtomicInteger calls = new AtomicInteger();
		FakeNext<ChatResult> next = FakeNext.complete((attempt) -> (calls.incrementAndGet() == 1)
				? Mono.error(UpstreamException.status("a", 401, null, null, "bad key", null))
				: Mono.just(FakeNext.result("ok", Usage.NONE)));
		StepVerifier.create(this.stage.apply(this.exchange, this.attempt, next))
			.expectNextCount(1)
			.expectComplete()
			.verify(Duration.ofSeconds(5));
		assertThat(next.attempts()).hasSize(2);
		String refused = next.attempts().get(0).key().id();
		assertThat(next.attempts().get(1).key().id()).isNotEqualTo(refused);
		assertThat(this.keys.states())
			.anySatisfy((state) -> assertThat(state).extracting(KeyPool.KeyState::key, KeyPool.KeyState::state)
				.containsExactly(refused, KeyPool.KeyState.State.REFUSED));
	}

	@Test
	void holdsTheProvidersPermitUntilAStreamEnds() {
		Sinks.Many<ChatChunk> upstream = Sinks.many().unicast().onBackpressureBuffer();
		FakeNext<ChatChunk> next = FakeNext.stream((attempt) -> upstream.asFlux());
		StepVerifier.create(this.stage.apply(this.exchange, this.attempt, next))
			.then(() -> upstream.tryEmitNext(FakeNext.chunk("a")))
			.expectNextCount(1)
			.then(() -> {
				assertThat(this.limiter.inFlight()).isEqualTo(1);
				StepVerifier.create(this.stage.apply(this.exchange, this.attempt, next))
					.expectErrorSatisfies((error) -> assertThat(error).isInstanceOf(DeniedException.class))
					.verify(Duration.ofSeconds(5));
			})
			.then(upstream::tryEmitComplete)
			.expectComplete()
			.verify(Duration.ofSeconds(5));
		assertThat(this.limiter.inFlight()).isZero();
	}

}
