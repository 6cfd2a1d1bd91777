package dev.junction.gateway.vkey;

import java.time.Duration;
import java.time.LocalDate;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import dev.junction.database.DatabaseUrl;
import dev.junction.gateway.support.TestPostgres;
import io.r2dbc.pool.ConnectionPool;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.r2dbc.core.binding.BindMarkersFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Blocks of budget taken by two gateways (two connection pools) from one real PostgreSQL:
 * they never hold more than the budget between them, an idle block and every block at
 * shutdown are given back, and spend whose write failed is written later.
 */
class BudgetLeasesIntegrationTests {

	private static final LocalDate PERIOD = LocalDate.of(2026, 11, 1);

	private static final Duration IDLE = Duration.ofSeconds(2);

	private static TestPostgres postgres;

	private static ConnectionPool firstPool;

	private static ConnectionPool secondPool;

	private static KeyStore first;

	private static KeyStore second;

	@BeforeAll
	static void start() {
		postgres = TestPostgres.start();
		VirtualKeysProperties.Db db = new VirtualKeysProperties.Db(postgres.url(), null, null, "unused", 10,
				Duration.ofSeconds(5));
		DatabaseUrl url = db.location();
		firstPool = KeyDatabase.open(url, db);
		secondPool = KeyDatabase.open(url, db);
		first = store(firstPool);
		second = store(secondPool);
	}

	private static KeyStore store(ConnectionPool pool) {
		return new KeyStore(DatabaseClient.builder()
			.connectionFactory(pool)
			.bindMarkers(BindMarkersFactory.indexed("$", 1))
			.build(), true);
	}

	@AfterAll
	static void stop() {
		if (postgres != null) {
			firstPool.dispose();
			secondPool.dispose();
			postgres.close();
		}
	}

	@Test
	void twoGatewaysServingFiftyConcurrentRequestsNeverSpendMoreThanTheBudget() {
		String key = newKey();
		long limit = 1_000_000;
		long reservation = 30_000;
		// A block is a quarter of the budget: each gateway serves several requests from
		// one.
		List<BudgetLeases> gateways = List.of(leases(first, 0.25, System::nanoTime),
				leases(second, 0.25, System::nanoTime));
		AtomicInteger served = new AtomicInteger();
		Flux.range(0, 50)
			.flatMap((i) -> gateways.get(i % 2)
				.reserve(key, PERIOD, reservation, limit)
				.subscribeOn(Schedulers.parallel())
				.delayUntil((hold) -> Mono.delay(Duration.ofMillis(20)))
				// Each request costs all it reserved: the worst case for the budget.
				.doOnNext((hold) -> {
					hold.settle(reservation);
					served.incrementAndGet();
				}), 50)
			.blockLast(Duration.ofSeconds(30));
		for (BudgetLeases gateway : gateways) {
			gateway.flush(true).block(Duration.ofSeconds(10));
		}
		long[] state = first.budgetState(key, PERIOD).block(Duration.ofSeconds(10));
		assertThat(state[0]).as("spent").isEqualTo(served.get() * reservation).isLessThanOrEqualTo(limit);
		assertThat(state[1]).as("reserved after every block was given back").isZero();
		// What the two gateways can leave unused is less than a reservation each.
		assertThat(served.get()).isBetween(31, 33);
	}

	@Test
	void givesBackWhatAnIdleBlockHoldsUnusedSoAnotherGatewayCanUseIt() {
		String key = newKey();
		AtomicLong clock = new AtomicLong();
		// A block is the whole budget.
		BudgetLeases busy = leases(first, 1, clock::get);
		BudgetLeases other = leases(second, 1, System::nanoTime);
		BudgetLeases.Hold hold = busy.reserve(key, PERIOD, 30_000, 100_000).block(Duration.ofSeconds(10));
		assertThat(hold).isNotNull();
		hold.settle(10_000);
		assertThat(other.reserve(key, PERIOD, 30_000, 100_000).blockOptional(Duration.ofSeconds(10)))
			.as("the first gateway holds the whole budget")
			.isEmpty();
		busy.flush(false).block(Duration.ofSeconds(10));
		assertThat(first.budgetState(key, PERIOD).block(Duration.ofSeconds(10))).as("spent written, block kept")
			.containsExactly(10_000, 90_000);
		clock.addAndGet(IDLE.toNanos());
		busy.flush(false).block(Duration.ofSeconds(10));
		assertThat(first.budgetState(key, PERIOD).block(Duration.ofSeconds(10))).as("idle block given back")
			.containsExactly(10_000, 0);
		assertThat(other.reserve(key, PERIOD, 30_000, 100_000).blockOptional(Duration.ofSeconds(10)))
			.as("the other gateway now has room")
			.isPresent();
	}

	@Test
	void givesBackEveryBlockAndWritesItsSpendAtShutdown() {
		String key = newKey();
		BudgetLeases leases = leases(first, 0.5, System::nanoTime);
		SpendBuffer spend = new SpendBuffer(first, () -> {
		});
		WriteBehind writeBehind = new WriteBehind(leases, spend, Duration.ofHours(1));
		BudgetLeases.Hold hold = leases.reserve(key, PERIOD, 30_000, 1_000_000).block(Duration.ofSeconds(10));
		hold.settle(12_000);
		spend.add(key, PERIOD, "emu/gpt-4o-mini", 12_000, 10, 20, 1, false);
		assertThat(first.budgetState(key, PERIOD).block(Duration.ofSeconds(10))).as("a block of half the budget")
			.containsExactly(0, 500_000);
		writeBehind.close();
		assertThat(first.budgetState(key, PERIOD).block(Duration.ofSeconds(10))).containsExactly(12_000, 0);
		assertThat(first.spend(key, PERIOD, PERIOD).collectList().block(Duration.ofSeconds(10)))
			.containsExactly(new KeyStore.SpendRow(PERIOD, "emu/gpt-4o-mini", 12_000, 0, 10, 20, 1));
	}

	@Test
	void writesSpendWhoseWriteFailedWithTheNextFlush() {
		String key = newKey();
		AtomicInteger errors = new AtomicInteger();
		SpendBuffer spend = new SpendBuffer(first, errors::incrementAndGet);
		spend.add(key, PERIOD, "emu/gpt-4o", 1_000, 1, 2, 1, false);
		postgres.execute("postgres", "ALTER TABLE virtual_key_spend RENAME TO virtual_key_spend_away");
		try {
			spend.flush().block(Duration.ofSeconds(10));
			spend.add(key, PERIOD, "emu/gpt-4o", 3_000, 4, 5, 1, true);
		}
		finally {
			postgres.execute("postgres", "ALTER TABLE virtual_key_spend_away RENAME TO virtual_key_spend");
		}
		assertThat(errors).as("the failed write was counted").hasValue(1);
		assertThat(spend.spend(key, PERIOD, PERIOD).collectList().block(Duration.ofSeconds(10)))
			.containsExactly(new KeyStore.SpendRow(PERIOD, "emu/gpt-4o", 1_000, 3_000, 5, 7, 2));
	}

	private static BudgetLeases leases(KeyStore store, double fraction, java.util.function.LongSupplier clock) {
		return new BudgetLeases(store, new VirtualKeysProperties.Lease(fraction, 0, 1, IDLE), clock, () -> {
		});
	}

	private static String newKey() {
		return "vk_" + UUID.randomUUID().toString().replace("-", "").substring(0, 20);
	}

}
