package dev.junction.gateway.pipeline;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.junction.gateway.error.InvalidRequestException;
import dev.junction.gateway.provider.ChatChunk;
import dev.junction.gateway.provider.ChatResult;
import dev.junction.gateway.provider.Usage;
import dev.junction.gateway.routing.ModelRouter;
import dev.junction.gateway.routing.Target;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

import static org.assertj.core.api.Assertions.assertThat;

class RoutingStageTests {

	private final RoutingStage stage = new RoutingStage(
			new ModelRouter(Set.of("a", "b"), Map.of("fast", List.of("a/x", "b/y")), "models"));

	@Test
	void sendsTheAttemptToTheFirstTargetOfTheRoute() {
		ChatExchange exchange = FakeNext
			.exchange("{\"model\":\"fast\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");
		FakeNext<ChatResult> next = FakeNext.complete((attempt) -> Mono.just(FakeNext.result("ok", Usage.NONE)));
		StepVerifier.create(this.stage.apply(exchange, Attempt.of(exchange.request()), next))
			.expectNextCount(1)
			.expectComplete()
			.verify(Duration.ofSeconds(5));
		assertThat(next.attempts()).singleElement().satisfies((attempt) -> {
			assertThat(attempt.target()).isEqualTo(new Target("a", "x"));
			assertThat(attempt.key()).isNull();
		});
		assertThat(exchange.route().targets()).containsExactly(new Target("a", "x"), new Target("b", "y"));
		assertThat(exchange.target()).isEqualTo(new Target("a", "x"));
	}

	@Test
	void leavesTheRequestsOwnModelsOutOfWhatIsSentButNeverChangesTheClientsBody() {
		ChatExchange exchange = FakeNext.exchange(
				"{\"model\":\"b/y\",\"models\":[\"b/y\",\"a/x\"],\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");
		FakeNext<ChatChunk> next = FakeNext.stream((attempt) -> Flux.just(FakeNext.chunk("ok")));
		StepVerifier.create(this.stage.apply(exchange, Attempt.of(exchange.request()), next))
			.expectNextCount(1)
			.expectComplete()
			.verify(Duration.ofSeconds(5));
		Attempt sent = next.attempts().get(0);
		assertThat(sent.request().body().has("models")).isFalse();
		assertThat(sent.request().body().get("messages")).isEqualTo(exchange.request().body().get("messages"));
		assertThat(exchange.request().body().has("models")).isTrue();
		assertThat(exchange.route().targets()).containsExactly(new Target("b", "y"), new Target("a", "x"));
	}

	@Test
	void rejectsAnUnknownModelBeforeAnythingIsSent() {
		ChatExchange exchange = FakeNext
			.exchange("{\"model\":\"c/z\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");
		FakeNext<ChatResult> next = FakeNext.complete((attempt) -> Mono.never());
		StepVerifier.create(this.stage.apply(exchange, Attempt.of(exchange.request()), next))
			.expectError(InvalidRequestException.class)
			.verify(Duration.ofSeconds(5));
		assertThat(next.attempts()).isEmpty();
	}

}
