package dev.junction.gateway.vkey;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import dev.junction.gateway.cost.Price;
import dev.junction.gateway.cost.PriceTable;
import dev.junction.gateway.error.UpstreamException;
import dev.junction.gateway.pipeline.Attempt;
import dev.junction.gateway.pipeline.ChatExchange;
import dev.junction.gateway.pipeline.ChatMode;
import dev.junction.gateway.pipeline.ChatStage;
import dev.junction.gateway.pipeline.FakeNext;
import dev.junction.gateway.pipeline.PoolStage;
import dev.junction.gateway.provider.ChatChunk;
import dev.junction.gateway.provider.ChatOutput;
import dev.junction.gateway.provider.ChatResult;
import dev.junction.gateway.provider.KeyPool;
import dev.junction.gateway.provider.ProviderKey;
import dev.junction.gateway.provider.ProviderLimiter;
import dev.junction.gateway.provider.ProviderRegistry;
import dev.junction.gateway.provider.Usage;
import dev.junction.gateway.provider.mock.MockChatProvider;
import dev.junction.gateway.ratelimit.LocalBucketStore;
import dev.junction.gateway.resilience.FallbackStage;
import dev.junction.gateway.routing.Route;
import dev.junction.gateway.routing.Target;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

class SpendStageTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(5);

	private static final Target A = new Target("a", "x");

	private static final Target B = new Target("b", "y");

	/** Per million tokens: a/x $1 in and $2 out, b/y ten times that. */
	private static final PriceTable PRICES = new PriceTable(
			Map.of("a/x", new Price(1, 2, null, null), "b/y", new Price(10, 20, null, null)));

	private static final String REQUEST = "{\"model\":\"fast\",\"max_tokens\":100,"
			+ "\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";

	private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

	private final SpendMetrics metrics = new SpendMetrics(this.registry, 10);

	private final SpendStage withoutKeys = new SpendStage(null, PRICES, this.metrics,
			new LocalBucketStore(Duration.ofHours(2)), 4096, this.registry);

	@Test
	void pricesARequestAtTheTargetThatAnsweredNotTheFirstOfItsRoute() {
		ChatExchange exchange = FakeNext.routed(FakeNext.exchange(REQUEST), new Route("fast", List.of(A, B)));
		FakeNext<ChatResult> provider = FakeNext.complete((attempt) -> A.equals(attempt.target())
				? Mono.error(UpstreamException.status("a", 503, null, null, "down", null))
				: Mono.just(FakeNext.result("from b", new Usage(100, 50))));
		StepVerifier
			.create(this.withoutKeys.apply(exchange, Attempt.of(exchange.request()),
					through(new FallbackStage(this.registry), through(new PoolStage(providers()), provider))))
			.expectNextCount(1)
			.expectComplete()
			.verify(TIMEOUT);
		assertThat(provider.attempts()).extracting(Attempt::target).containsExactly(A, B);
		// 100 in at $10 and 50 out at $20 per million.
		assertThat(exchange.costNanos()).isEqualTo(2_000_000);
		assertThat(cost("b", "y")).isEqualTo(0.002);
		assertThat(tokens("b", "y", "input")).isEqualTo(100);
		assertThat(tokens("b", "y", "output")).isEqualTo(50);
		assertThat(this.registry.find(SpendMetrics.COST).tag("provider", "a").counter()).isNull();
	}

	@Test
	void chargesTheLastUsageAStreamReportsInPlaceOfTheEarlierOnes() {
		ChatExchange exchange = FakeNext.routed(FakeNext.exchange(REQUEST), new Route("fast", List.of(A)));
		FakeNext<ChatChunk> provider = FakeNext.stream((attempt) -> Flux.just(FakeNext.chunk("a"),
				new ChatChunk("{}", new Usage(100, 10), false), new ChatChunk("{}", new Usage(100, 50), true)));
		StepVerifier.create(this.withoutKeys.apply(exchange, Attempt.of(exchange.request()), provider))
			.expectNextCount(3)
			.expectComplete()
			.verify(TIMEOUT);
		// 100 in at $1 and 50 out at $2 per million.
		assertThat(exchange.costNanos()).isEqualTo(200_000);
		assertThat(cost("a", "x")).isEqualTo(0.0002);
		assertThat(tokens("a", "x", "input")).isEqualTo(100);
		assertThat(tokens("a", "x", "output")).isEqualTo(50);
	}

	@Test
	void anAnswerFromTheResponseCacheCostsNothing() {
		ChatExchange exchange = FakeNext.routed(FakeNext.exchange(REQUEST), new Route("fast", List.of(A)));
		exchange.cacheStatus(ChatExchange.CacheStatus.HIT);
		FakeNext<ChatResult> cache = FakeNext
			.complete((attempt) -> Mono.just(FakeNext.result("cached", new Usage(100, 50))));
		StepVerifier.create(this.withoutKeys.apply(exchange, Attempt.of(exchange.request()), cache))
			.expectNextCount(1)
			.expectComplete()
			.verify(TIMEOUT);
		assertThat(exchange.costNanos()).isEqualTo(-1);
		assertThat(this.registry.find(SpendMetrics.COST).counters()).isEmpty();
	}

	@Test
	void aStreamThatFailsAfterSomeChunksCostsNothing() {
		ChatExchange exchange = FakeNext.routed(FakeNext.exchange(REQUEST), new Route("fast", List.of(A)));
		UpstreamException failure = UpstreamException.status("a", 502, null, null, "cut off", null);
		FakeNext<ChatChunk> provider = FakeNext.stream((attempt) -> Flux.defer(() -> {
			exchange.beginUpstream();
			return Flux.just(FakeNext.chunk("a"), FakeNext.chunk("b")).concatWith(Flux.error(failure));
		}));
		StepVerifier.create(this.withoutKeys.apply(exchange, Attempt.of(exchange.request()), provider))
			.expectNextCount(2)
			.expectErrorMatches((error) -> error == failure)
			.verify(TIMEOUT);
		assertThat(exchange.costNanos()).isEqualTo(-1);
		assertThat(this.registry.find(SpendMetrics.COST).counters()).isEmpty();
	}

	private double cost(String provider, String model) {
		return this.registry.get(SpendMetrics.COST).tag("provider", provider).tag("model", model).counter().count();
	}

	private double tokens(String provider, String model, String type) {
		return this.registry.get(SpendMetrics.TOKENS)
			.tag("provider", provider)
			.tag("model", model)
			.tag("type", type)
			.counter()
			.count();
	}

	/** Providers a and b, a key each: the pool stage records where a call goes. */
	private static ProviderRegistry providers() {
		ProviderRegistry providers = new ProviderRegistry();
		for (Target target : List.of(A, B)) {
			providers.register(new MockChatProvider(target.provider(), List.of(target.model()), new JsonMapper()),
					new KeyPool(target.provider(), List.of(new ProviderKey("sk-" + target.provider(), 1, null)),
							Duration.ofSeconds(30), Duration.ofSeconds(30)),
					new ProviderLimiter(target.provider(), 4, 4, Duration.ofMillis(200), true));
		}
		return providers;
	}

	/** {@code stage} in front of {@code next}. */
	private static <T extends ChatOutput> ChatStage.Next<T> through(ChatStage stage, ChatStage.Next<T> next) {
		return new ChatStage.Next<>() {

			@Override
			public Flux<T> apply(ChatExchange exchange, Attempt attempt) {
				return stage.apply(exchange, attempt, next);
			}

			@Override
			public ChatMode<T> mode() {
				return next.mode();
			}

		};
	}

}
