package dev.junction.gateway.metrics;

import java.time.Duration;
import java.util.List;

import dev.junction.gateway.auth.GatewayKeys;
import dev.junction.gateway.error.DeniedException;
import dev.junction.gateway.error.UpstreamException;
import dev.junction.gateway.pipeline.Attempt;
import dev.junction.gateway.pipeline.ChatExchange;
import dev.junction.gateway.pipeline.FakeNext;
import dev.junction.gateway.provider.ChatChunk;
import dev.junction.gateway.provider.ChatResult;
import dev.junction.gateway.provider.KeyPool;
import dev.junction.gateway.provider.ProviderLimiter;
import dev.junction.gateway.provider.ProviderRegistry;
import dev.junction.gateway.provider.Usage;
import dev.junction.gateway.provider.mock.MockChatProvider;
import dev.junction.gateway.routing.Route;
import dev.junction.gateway.routing.Target;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

class MetricsStageTests {

	private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

	private final MetricsStage stage;

	private final ChatExchange exchange = FakeNext.routed(
			FakeNext.exchange("{\"model\":\"a/x\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}"),
			new Route("a/x", List.of(new Target("a", "x"))));

	MetricsStageTests() {
		ProviderRegistry providers = new ProviderRegistry();
		providers.register(new MockChatProvider("a", List.of("x"), new JsonMapper()),
				new KeyPool("a", List.of(), Duration.ofSeconds(1), Duration.ofSeconds(1)),
				new ProviderLimiter("a", 1, 1, Duration.ofSeconds(1), true));
		this.stage = new MetricsStage(new GatewayMetrics(this.registry), providers,
				new GatewayKeys(List.of(), List.of()));
	}

	@Test
	void recordsACompleteAnswerWithItsTokens() {
		FakeNext<ChatResult> next = FakeNext.complete((attempt) -> Mono.just(FakeNext.result("ok", new Usage(3, 4))));
		StepVerifier.create(this.stage.apply(this.exchange, Attempt.of(this.exchange.request()), next))
			.expectNextCount(1)
			.expectComplete()
			.verify(Duration.ofSeconds(5));
		assertThat(this.registry.get(GatewayMetrics.REQUESTS)
			.tag("outcome", "success")
			.tag("provider", "a")
			.timer()
			.count()).isEqualTo(1);
		assertThat(
				this.registry.get(GatewayMetrics.TOKEN_USAGE).tag("gen_ai.token.type", "input").summary().totalAmount())
			.isEqualTo(3);
	}

	@Test
	void recordsAStreamTheClientLeftAsCancelledWithTheTokensSoFar() {
		ChatChunk usage = new ChatChunk("{}", new Usage(2, 1), false);
		FakeNext<ChatChunk> next = FakeNext.stream((attempt) -> Flux.just(usage).concatWith(Flux.never()));
		StepVerifier.create(this.stage.apply(this.exchange, Attempt.of(this.exchange.request()), next))
			.expectNextCount(1)
			.thenCancel()
			.verify(Duration.ofSeconds(5));
		assertThat(this.registry.get(GatewayMetrics.REQUESTS).tag("outcome", "cancelled").timer().count()).isEqualTo(1);
		assertThat(this.registry.find(GatewayMetrics.REQUESTS).tag("outcome", "success").timer()).isNull();
	}

	@Test
	void recordsAFailureOnceWithItsOutcome() {
		FakeNext<ChatResult> next = FakeNext
			.complete((attempt) -> Mono.error(UpstreamException.status("a", 503, null, null, "down", null)));
		StepVerifier.create(this.stage.apply(this.exchange, Attempt.of(this.exchange.request()), next))
			.expectError(UpstreamException.class)
			.verify(Duration.ofSeconds(5));
		assertThat(this.registry.get(GatewayMetrics.REQUESTS).timers()).singleElement()
			.satisfies((timer) -> assertThat(timer.getId().getTag("outcome")).isEqualTo("upstream_error"));
	}

	@Test
	void tagsAnErrorTypeAnUpstreamMadeUpAsOther() {
		assertThat(MetricsStage.errorType(UpstreamException.status("p", 400, "sk-quoted-key", null, "m", null)))
			.isEqualTo("other");
		assertThat(MetricsStage.errorType(UpstreamException.status("p", 400, "invalid_request_error", null, "m", null)))
			.isEqualTo("invalid_request_error");
		assertThat(MetricsStage.errorType(DeniedException.noUsableKey("m", null))).isEqualTo("server_error");
		assertThat(MetricsStage.errorType(new IllegalStateException("x"))).isEqualTo("internal_error");
	}

}
