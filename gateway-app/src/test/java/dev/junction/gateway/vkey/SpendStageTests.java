package dev.junction.gateway.vkey;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;

import dev.junction.database.DatabaseUrl;
import dev.junction.gateway.auth.ClientIdentity;
import dev.junction.gateway.cost.Price;
import dev.junction.gateway.cost.PriceTable;
import dev.junction.gateway.error.DeniedException;
import dev.junction.gateway.error.InvalidRequestException;
import dev.junction.gateway.error.UpstreamException;
import dev.junction.gateway.pipeline.Attempt;
import dev.junction.gateway.pipeline.ChatExchange;
import dev.junction.gateway.pipeline.ChatMode;
import dev.junction.gateway.pipeline.ChatStage;
import dev.junction.gateway.pipeline.FakeNext;
import dev.junction.gateway.pipeline.PoolStage;
import dev.junction.gateway.provider.ChatChunk;
import dev.junction.gateway.provider.ChatOutput;
import dev.junction.gateway.provider.ChatRequest;
import dev.junction.gateway.provider.ChatResult;
import dev.junction.gateway.provider.KeyPool;
import dev.junction.gateway.provider.ProviderKey;
import dev.junction.gateway.provider.ProviderLimiter;
import dev.junction.gateway.provider.ProviderRegistry;
import dev.junction.gateway.provider.Usage;
import dev.junction.gateway.provider.mock.MockChatProvider;
import dev.junction.gateway.ratelimit.LocalBucketStore;
import dev.junction.gateway.ratelimit.RateLimitStage;
import dev.junction.gateway.resilience.FallbackStage;
import dev.junction.gateway.routing.Route;
import dev.junction.gateway.routing.Target;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.r2dbc.pool.ConnectionPool;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.r2dbc.core.binding.BindMarkersFactory;

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

	private static final JsonMapper MAPPER = new JsonMapper();

	@TempDir
	static Path dir;

	private static ConnectionPool pool;

	private static KeyStore store;

	private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

	private final SpendMetrics metrics = new SpendMetrics(this.registry, 10);

	private final SpendStage withoutKeys = new SpendStage(null, PRICES, this.metrics,
			new LocalBucketStore(Duration.ofHours(2)), 4096, this.registry);

	private final BudgetLeases leases = new BudgetLeases(store,
			new VirtualKeysProperties.Lease(0.05, 0.0001, 1, Duration.ofSeconds(2)), System::nanoTime, () -> {
			});

	private final KeyService keys = new KeyService(store, new KeyCache(store::find, 100, true, this.registry),
			this.leases, new SpendBuffer(store, () -> {
			}), Clock.systemUTC());

	private final SpendStage withKeys = new SpendStage(this.keys, PRICES, this.metrics,
			new LocalBucketStore(Duration.ofHours(2)), 4096, this.registry);

	@BeforeAll
	static void openKeyDatabase() {
		VirtualKeysProperties.Db db = new VirtualKeysProperties.Db(null, null, null, dir.resolve("keys").toString(), 4,
				Duration.ofSeconds(5));
		DatabaseUrl url = db.location();
		pool = KeyDatabase.open(url, db);
		store = new KeyStore(DatabaseClient.builder()
			.connectionFactory(pool)
			.bindMarkers(BindMarkersFactory.indexed("$", 1))
			.build(), url.postgres());
	}

	@AfterAll
	static void closeKeyDatabase() {
		pool.dispose();
	}

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
		ChatExchange exchange = routedToA();
		FakeNext<ChatChunk> provider = FakeNext.stream((attempt) -> Flux.just(FakeNext.chunk("a"),
				new ChatChunk("{}", new Usage(100, 10), false), new ChatChunk("{}", new Usage(100, 50), true)));
		completes(this.withoutKeys, exchange, provider, 3);
		// 100 in at $1 and 50 out at $2 per million.
		assertThat(exchange.costNanos()).isEqualTo(200_000);
		assertThat(cost("a", "x")).isEqualTo(0.0002);
		assertThat(tokens("a", "x", "input")).isEqualTo(100);
		assertThat(tokens("a", "x", "output")).isEqualTo(50);
	}

	@Test
	void anAnswerFromTheResponseCacheCostsNothing() {
		ChatExchange exchange = routedToA();
		exchange.cacheStatus(ChatExchange.CacheStatus.HIT);
		FakeNext<ChatResult> cache = FakeNext
			.complete((attempt) -> Mono.just(FakeNext.result("cached", new Usage(100, 50))));
		completes(this.withoutKeys, exchange, cache, 1);
		assertThat(exchange.costNanos()).isEqualTo(-1);
		assertThat(this.registry.find(SpendMetrics.COST).counters()).isEmpty();
	}

	@Test
	void aStreamThatFailsAfterSomeChunksCostsNothing() {
		ChatExchange exchange = routedToA();
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

	@Test
	void aClientThatIsNotAVirtualKeyIsPricedWithoutTheKeyChecks() {
		ChatExchange exchange = routedToA();
		FakeNext<ChatResult> provider = FakeNext
			.complete((attempt) -> Mono.just(FakeNext.result("ok", new Usage(100, 50))));
		completes(this.withKeys, exchange, provider, 1);
		assertThat(exchange.costNanos()).isEqualTo(200_000);
		assertThat(exchange.budget()).isNull();
		assertThat(cost("a", "x")).isEqualTo(0.0002);
		assertThat(this.registry.find(SpendMetrics.KEY_COST).counters()).isEmpty();
	}

	@Test
	void reservesAKeysBudgetBeforeTheCallAndSettlesItFromTheUsage() {
		String id = newKey(List.of(), new Budget(1_000_000_000, Period.TOTAL));
		ChatExchange exchange = exchange(id, null, A);
		ChatExchange.BudgetStatus atCall = budgetAtTheCall(exchange);
		// The prompt (11 tokens by size) at $1, max_tokens (100) at $2 per million.
		assertThat(atCall).isEqualTo(new ChatExchange.BudgetStatus(1_000_000_000, 211_000, 211_000, -1));
		assertThat(exchange.costNanos()).isEqualTo(200_000);
		assertThat(budgetWritten(id)).as("spent, reserved").containsExactly(200_000, 0);
		assertThat(spendOf(id)).singleElement().satisfies((row) -> {
			assertThat(row.model()).isEqualTo("a/x");
			assertThat(row.costNanos()).isEqualTo(200_000);
			assertThat(row.byokCostNanos()).isZero();
			assertThat(row.promptTokens()).isEqualTo(100);
			assertThat(row.completionTokens()).isEqualTo(50);
			assertThat(row.requests()).isOne();
		});
		assertThat(this.registry.get(SpendMetrics.KEY_COST).tag("key", id).counter().count()).isEqualTo(0.0002);
	}

	@Test
	void reservesAtTheDearestPriceOnTheRouteThenChargesTheTargetThatAnswered() {
		String id = newKey(List.of(), new Budget(1_000_000_000, Period.TOTAL));
		ChatExchange exchange = exchange(id, null, A, B);
		ChatExchange.BudgetStatus atCall = budgetAtTheCall(exchange);
		// 11 prompt tokens at $10 and 100 at $20 per million: b/y's price, not a/x's.
		assertThat(atCall.reservedNanos()).isEqualTo(2_110_000);
		assertThat(budgetWritten(id)).as("spent, reserved").containsExactly(200_000, 0);
	}

	@Test
	void refusesAKeyWhoseBudgetCannotCoverTheRequestBeforeCallingTheProvider() {
		String id = newKey(List.of(), new Budget(100_000, Period.TOTAL));
		ChatExchange exchange = exchange(id, null, A);
		FakeNext<ChatResult> provider = FakeNext
			.complete((attempt) -> Mono.just(FakeNext.result("ok", new Usage(1, 1))));
		StepVerifier.create(this.withKeys.apply(exchange, Attempt.of(exchange.request()), provider))
			.expectErrorSatisfies((error) -> {
				assertThat(error).isInstanceOf(DeniedException.class);
				DeniedException denied = (DeniedException) error;
				assertThat(denied.status()).isEqualTo(429);
				assertThat(denied.code()).isEqualTo("budget_exceeded");
			})
			.verify(TIMEOUT);
		assertThat(provider.attempts()).isEmpty();
		assertThat(this.registry.get(RateLimitStage.DENIED).tag("budget", "budget_exceeded").counter().count()).isOne();
		assertThat(budgetWritten(id)).as("spent, reserved").containsExactly(0, 0);
	}

	@Test
	void refusesAModelTheKeyMayNotUseBeforeCallingTheProvider() {
		String id = newKey(List.of("b/*"), null);
		ChatExchange exchange = exchange(id, null, A);
		FakeNext<ChatResult> provider = FakeNext
			.complete((attempt) -> Mono.just(FakeNext.result("ok", new Usage(1, 1))));
		StepVerifier.create(this.withKeys.apply(exchange, Attempt.of(exchange.request()), provider))
			.expectErrorSatisfies((error) -> {
				assertThat(error).isInstanceOf(InvalidRequestException.class).hasMessageContaining("'fast'");
				assertThat(((InvalidRequestException) error).status()).isEqualTo(403);
			})
			.verify(TIMEOUT);
		assertThat(provider.attempts()).isEmpty();
	}

	@Test
	void aCallWithTheCallersOwnKeyReservesNothingAndIsRecordedAsPaidByTheCaller() {
		String id = newKey(List.of(), new Budget(1_000_000_000, Period.TOTAL));
		ChatExchange exchange = exchange(id, "sk-callers-own", A);
		FakeNext<ChatResult> provider = FakeNext
			.complete((attempt) -> Mono.just(FakeNext.result("ok", new Usage(100, 50))));
		completes(this.withKeys, exchange, provider, 1);
		assertThat(exchange.budget()).isNull();
		assertThat(exchange.costNanos()).isEqualTo(200_000);
		assertThat(budgetWritten(id)).as("spent, reserved").containsExactly(0, 0);
		assertThat(spendOf(id)).singleElement().satisfies((row) -> {
			assertThat(row.costNanos()).isZero();
			assertThat(row.byokCostNanos()).isEqualTo(200_000);
			assertThat(row.promptTokens()).isEqualTo(100);
			assertThat(row.completionTokens()).isEqualTo(50);
			assertThat(row.requests()).isOne();
		});
	}

	@Test
	void aStreamCancelledBeforeItsUsageIsChargedForItsPromptAndTheChunksReceived() {
		String id = newKey(List.of(), new Budget(1_000_000_000, Period.TOTAL));
		ChatExchange exchange = exchange(id, null, A);
		FakeNext<ChatChunk> provider = FakeNext.stream((attempt) -> Flux.defer(() -> {
			exchange.beginUpstream();
			return Flux.just(FakeNext.chunk("a"), FakeNext.chunk("b")).concatWith(Flux.never());
		}));
		StepVerifier.create(this.withKeys.apply(exchange, Attempt.of(exchange.request()), provider))
			.expectNextCount(2)
			.thenCancel()
			.verify(TIMEOUT);
		// The prompt's 11 tokens at $1 and a token per chunk at $2 per million.
		assertThat(exchange.costNanos()).isEqualTo(15_000);
		assertThat(budgetWritten(id)).as("spent, reserved").containsExactly(15_000, 0);
		assertThat(spendOf(id)).singleElement().satisfies((row) -> {
			assertThat(row.costNanos()).isEqualTo(15_000);
			assertThat(row.promptTokens()).isEqualTo(11);
			assertThat(row.completionTokens()).isEqualTo(2);
		});
	}

	/** A key that may use {@code models} (any when empty) with {@code budget}. */
	private static String newKey(List<String> models, Budget budget) {
		String id = "vk_" + UUID.randomUUID().toString().replace("-", "").substring(0, 20);
		store
			.insert(new VirtualKey(id, "0".repeat(64), "test", null, models, null, null, budget, null, null,
					Instant.now()))
			.block(TIMEOUT);
		return id;
	}

	/** The request of no virtual key, routed to {@code A}. */
	private static ChatExchange routedToA() {
		return FakeNext.routed(FakeNext.exchange(REQUEST), new Route("fast", List.of(A)));
	}

	/**
	 * Runs {@code exchange} through {@code stage} to {@code next} and checks it passes
	 * {@code count} outputs on and completes.
	 */
	private static <T extends ChatOutput> void completes(SpendStage stage, ChatExchange exchange,
			ChatStage.Next<T> next, int count) {
		StepVerifier.create(stage.apply(exchange, Attempt.of(exchange.request()), next))
			.expectNextCount(count)
			.expectComplete()
			.verify(TIMEOUT);
	}

	/** The request from virtual key {@code id}, routed to {@code targets}. */
	private static ChatExchange exchange(String id, String callerKey, Target... targets) {
		ChatExchange exchange = new ChatExchange(ChatRequest.parse(REQUEST.getBytes(), MAPPER),
				ClientIdentity.ofKey(id), "chat", System.nanoTime(), "req-1", false, false, callerKey);
		return FakeNext.routed(exchange, new Route("fast", List.of(targets)));
	}

	/**
	 * What the key spent and holds reserved of its budget once everything is written and
	 * every block given back.
	 */
	private long[] budgetWritten(String id) {
		this.leases.flush(true).block(TIMEOUT);
		return store.budgetState(id, LocalDate.EPOCH).block(TIMEOUT);
	}

	private List<KeyStore.SpendRow> spendOf(String id) {
		LocalDate today = LocalDate.now(ZoneOffset.UTC);
		return this.keys.spend().spend(id, today.minusDays(1), today.plusDays(1)).collectList().block(TIMEOUT);
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

	/**
	 * Runs {@code exchange} through the stage with keys to a provider that answers with
	 * 100 prompt and 50 completion tokens; the key's budget as the provider was called.
	 */
	private ChatExchange.BudgetStatus budgetAtTheCall(ChatExchange exchange) {
		AtomicReference<ChatExchange.BudgetStatus> atCall = new AtomicReference<>();
		FakeNext<ChatResult> provider = FakeNext.complete((attempt) -> {
			atCall.set(exchange.budget());
			return Mono.just(FakeNext.result("ok", new Usage(100, 50)));
		});
		completes(this.withKeys, exchange, provider, 1);
		return atCall.get();
	}

}
