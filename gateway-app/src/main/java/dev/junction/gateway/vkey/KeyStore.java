package dev.junction.gateway.vkey;

import java.time.Instant;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import dev.junction.database.WholeResults;
import io.r2dbc.spi.Readable;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.r2dbc.core.DatabaseClient;

/**
 * Virtual keys, their budgets and their spend, in PostgreSQL or H2 through R2DBC. Blocks
 * of budget are taken with one conditional {@code UPDATE}, so instances sharing a
 * PostgreSQL never hold more than the budget between them. On PostgreSQL every key
 * written is announced on {@link #CHANNEL} with its id, in the statement that writes it.
 */
public final class KeyStore {

	/** The length of the model column of spend rows. */
	static final int SPEND_MODEL_LENGTH = 300;

	/** The PostgreSQL channel that carries the id of every key created or changed. */
	public static final String CHANNEL = "junction_virtual_keys";

	private static final String KEY_COLUMNS = "id, secret_hash, name, owner, models, requests_per_minute, "
			+ "tokens_per_minute, budget_nanos, budget_period, expires_at, revoked_at, created_at";

	private final DatabaseClient db;

	/**
	 * Budget and spend rows known to exist, so their insert is tried once per process.
	 */
	private final Set<String> knownRows = ConcurrentHashMap.newKeySet();

	private final boolean postgres;

	/**
	 * @param db the database
	 * @param postgres whether it is PostgreSQL (H2 otherwise)
	 */
	public KeyStore(DatabaseClient db, boolean postgres) {
		this.db = db;
		this.postgres = postgres;
	}

	public Mono<Void> insert(VirtualKey key) {
		return written(bindKey(this.db.sql(announced("INSERT INTO virtual_keys (" + KEY_COLUMNS
				+ ") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)")), key));
	}

	/** Writes everything but the id and creation time. */
	public Mono<Void> update(VirtualKey key) {
		return written(bindKey(
				this.db.sql(announced("UPDATE virtual_keys SET secret_hash = $2, name = $3, owner = $4, "
						+ "models = $5, requests_per_minute = $6, tokens_per_minute = $7, budget_nanos = $8, "
						+ "budget_period = $9, expires_at = $10, revoked_at = $11 WHERE id = $1 AND created_at = $12")),
				key));
	}

	/**
	 * Runs a write made by {@link #announced}: on PostgreSQL it answers with the
	 * notification's row, read to its end even when the caller has left.
	 */
	private static Mono<Void> written(DatabaseClient.GenericExecuteSpec write) {
		return WholeResults.drained(write.map((row) -> true).all());
	}

	/**
	 * On PostgreSQL, {@code write} notifying {@link #CHANNEL} of the key it wrote when it
	 * commits.
	 */
	private String announced(String write) {
		return this.postgres
				? "WITH written AS (" + write + " RETURNING id) SELECT pg_notify('" + CHANNEL + "', id) FROM written"
				: write;
	}

	private static DatabaseClient.GenericExecuteSpec bindKey(DatabaseClient.GenericExecuteSpec spec, VirtualKey key) {
		Budget budget = key.budget();
		spec = spec.bind(0, key.id()).bind(1, key.secretHash()).bind(2, key.name());
		spec = bindNullable(spec, 3, key.owner(), String.class);
		spec = spec.bind(4, String.join("\n", key.models()));
		spec = bindNullable(spec, 5, key.requestsPerMinute(), Long.class);
		spec = bindNullable(spec, 6, key.tokensPerMinute(), Long.class);
		spec = bindNullable(spec, 7, (budget != null) ? budget.nanos() : null, Long.class);
		spec = bindNullable(spec, 8, (budget != null) ? budget.period().id() : null, String.class);
		spec = bindNullable(spec, 9, millis(key.expiresAt()), Long.class);
		spec = bindNullable(spec, 10, millis(key.revokedAt()), Long.class);
		return spec.bind(11, key.createdAt().toEpochMilli());
	}

	private static <T> DatabaseClient.GenericExecuteSpec bindNullable(DatabaseClient.GenericExecuteSpec spec, int index,
			@Nullable T value, Class<T> type) {
		return (value != null) ? spec.bind(index, value) : spec.bindNull(index, type);
	}

	private static @Nullable Long millis(@Nullable Instant instant) {
		return (instant != null) ? instant.toEpochMilli() : null;
	}

	public Mono<VirtualKey> find(String id) {
		return WholeResults.one(this.db.sql("SELECT " + KEY_COLUMNS + " FROM virtual_keys WHERE id = $1")
			.bind(0, id)
			.map(KeyStore::key)
			.all());
	}

	/** The keys of one owner, oldest first. */
	public Flux<VirtualKey> ownedBy(String owner) {
		return WholeResults
			.all(this.db.sql("SELECT " + KEY_COLUMNS + " FROM virtual_keys WHERE owner = $1 ORDER BY created_at, id")
				.bind(0, owner)
				.map(KeyStore::key)
				.all());
	}

	public Flux<VirtualKey> all() {
		return WholeResults.all(this.db.sql("SELECT " + KEY_COLUMNS + " FROM virtual_keys ORDER BY created_at, id")
			.map(KeyStore::key)
			.all());
	}

	private static VirtualKey key(Readable row) {
		String models = row.get("models", String.class);
		Long budgetNanos = row.get("budget_nanos", Long.class);
		String period = row.get("budget_period", String.class);
		return new VirtualKey(row.get("id", String.class), row.get("secret_hash", String.class),
				row.get("name", String.class), row.get("owner", String.class),
				(models == null || models.isEmpty()) ? List.of() : Arrays.asList(models.split("\n")),
				row.get("requests_per_minute", Long.class), row.get("tokens_per_minute", Long.class),
				(budgetNanos != null && period != null) ? new Budget(budgetNanos, Period.of(period)) : null,
				instant(row.get("expires_at", Long.class)), instant(row.get("revoked_at", Long.class)),
				Instant.ofEpochMilli(row.get("created_at", Long.class)));
	}

	private static @Nullable Instant instant(@Nullable Long millis) {
		return (millis != null) ? Instant.ofEpochMilli(millis) : null;
	}

	/**
	 * Takes a block of up to {@code want} nano-dollars of {@code key}'s budget for the
	 * period starting {@code start}, bounded by what is left under {@code limit}, if at
	 * least {@code need} is left: one conditional {@code UPDATE}. Emits [granted, spent
	 * and reserved after it]; nothing when less than {@code need} is left.
	 */
	public Mono<long[]> lease(String key, LocalDate start, long want, long need, long limit) {
		String grant = "LEAST($1, $4 - spent_nanos - reserved_nanos)";
		String update = "UPDATE virtual_key_budgets SET reserved_nanos = reserved_nanos + " + grant
				+ ", last_lease_nanos = " + grant
				+ " WHERE key_id = $2 AND period_start = $3 AND spent_nanos + reserved_nanos + $5 <= $4";
		String columns = "last_lease_nanos AS granted, spent_nanos + reserved_nanos AS used";
		String sql = this.postgres ? update + " RETURNING " + columns
				: "SELECT " + columns + " FROM FINAL TABLE (" + update + ")";
		return ensureBudgetRow(key, start).then(WholeResults.one(this.db.sql(sql)
			.bind(0, want)
			.bind(1, key)
			.bind(2, start.toString())
			.bind(3, limit)
			.bind(4, need)
			.map((row) -> new long[] { row.get("granted", Long.class), row.get("used", Long.class) })
			.all()));
	}

	/**
	 * Gives back {@code reserved} of a key's reserved budget and adds {@code cost} to
	 * what it spent.
	 */
	public Mono<Void> settleBudget(String key, LocalDate start, long reserved, long cost) {
		return ensureBudgetRow(key, start).then(this.db
			.sql("UPDATE virtual_key_budgets SET reserved_nanos = reserved_nanos - $1, spent_nanos = spent_nanos + $2 "
					+ "WHERE key_id = $3 AND period_start = $4")
			.bind(0, reserved)
			.bind(1, cost)
			.bind(2, key)
			.bind(3, start.toString())
			.then());
	}

	/**
	 * What a key spent and holds reserved in the period starting {@code start}: [spent,
	 * reserved].
	 */
	public Mono<long[]> budgetState(String key, LocalDate start) {
		return WholeResults.one(this.db
			.sql("SELECT spent_nanos, reserved_nanos FROM virtual_key_budgets WHERE key_id = $1 AND period_start = $2")
			.bind(0, key)
			.bind(1, start.toString())
			.map((row) -> new long[] { row.get("spent_nanos", Long.class), row.get("reserved_nanos", Long.class) })
			.all()).defaultIfEmpty(new long[] { 0, 0 });
	}

	/**
	 * Adds requests' cost and tokens to a key's spend for a day and model;
	 * {@code byokCost} is the cost of requests the caller paid the provider for with its
	 * own key, kept apart.
	 */
	public Mono<Void> recordSpend(String key, LocalDate day, String calledModel, long cost, long byokCost,
			long promptTokens, long completionTokens, long requests) {
		String model = spendModel(calledModel);
		String id = "s:" + key + ":" + day + ":" + model;
		Mono<Void> ensure = this.knownRows.contains(id) ? Mono.empty() : this.db
			.sql("INSERT INTO virtual_key_spend (key_id, spend_day, model) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING")
			.bind(0, key)
			.bind(1, day.toString())
			.bind(2, model)
			.then()
			.doOnSuccess((done) -> this.knownRows.add(id));
		return ensure.then(this.db
			.sql("UPDATE virtual_key_spend SET cost_nanos = cost_nanos + $1, byok_cost_nanos = byok_cost_nanos + $8, "
					+ "prompt_tokens = prompt_tokens + $2, completion_tokens = completion_tokens + $3, requests = requests + $7 "
					+ "WHERE key_id = $4 AND spend_day = $5 AND model = $6")
			.bind(0, cost)
			.bind(1, promptTokens)
			.bind(2, completionTokens)
			.bind(3, key)
			.bind(4, day.toString())
			.bind(5, model)
			.bind(6, requests)
			.bind(7, byokCost)
			.then());
	}

	/**
	 * The model as its spend row names it: the model a client called, cut to the column's
	 * {@value #SPEND_MODEL_LENGTH} characters (a client may call any name), never in the
	 * middle of a character.
	 */
	static String spendModel(String model) {
		if (model.length() <= SPEND_MODEL_LENGTH) {
			return model;
		}
		int end = Character.isHighSurrogate(model.charAt(SPEND_MODEL_LENGTH - 1)) ? SPEND_MODEL_LENGTH - 1
				: SPEND_MODEL_LENGTH;
		return model.substring(0, end);
	}

	/** A key's spend per day and model between two days, both included. */
	public Flux<SpendRow> spend(String key, LocalDate from, LocalDate to) {
		return WholeResults.all(this.db.sql(
				"SELECT spend_day, model, cost_nanos, byok_cost_nanos, prompt_tokens, completion_tokens, requests FROM virtual_key_spend "
						+ "WHERE key_id = $1 AND spend_day >= $2 AND spend_day <= $3 ORDER BY spend_day, model")
			.bind(0, key)
			.bind(1, from.toString())
			.bind(2, to.toString())
			.map((row) -> new SpendRow(LocalDate.parse(row.get("spend_day", String.class)),
					row.get("model", String.class), row.get("cost_nanos", Long.class),
					row.get("byok_cost_nanos", Long.class), row.get("prompt_tokens", Long.class),
					row.get("completion_tokens", Long.class), row.get("requests", Long.class)))
			.all());
	}

	private Mono<Void> ensureBudgetRow(String key, LocalDate start) {
		String id = "b:" + key + ":" + start;
		if (this.knownRows.contains(id)) {
			return Mono.empty();
		}
		return this.db
			.sql("INSERT INTO virtual_key_budgets (key_id, period_start) VALUES ($1, $2) ON CONFLICT DO NOTHING")
			.bind(0, key)
			.bind(1, start.toString())
			.then()
			.doOnSuccess((done) -> this.knownRows.add(id));
	}

	/**
	 * One day's spend of a key on one model.
	 *
	 * @param day the UTC day
	 * @param model the model that answered
	 * @param costNanos what it cost, in nano-dollars
	 * @param byokCostNanos what the requests the caller paid for with its own provider
	 * key cost, in nano-dollars
	 * @param promptTokens tokens read
	 * @param completionTokens tokens generated
	 * @param requests requests recorded, those paid by the caller included
	 */
	public record SpendRow(LocalDate day, String model, long costNanos, long byokCostNanos, long promptTokens,
			long completionTokens, long requests) {
	}

}
