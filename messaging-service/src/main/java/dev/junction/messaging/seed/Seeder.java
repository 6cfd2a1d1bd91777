package dev.junction.messaging.seed;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

import dev.junction.database.DatabaseUrl;
import dev.junction.messaging.common.Ids;
import dev.junction.messaging.common.Timestamps;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.r2dbc.postgresql.api.PostgresqlConnection;
import io.r2dbc.spi.Connection;
import io.r2dbc.spi.ConnectionFactory;
import io.r2dbc.spi.Wrapped;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Component;

/**
 * Bulk loader for benchmarks: instances, chats with correct counters, messages spread
 * over the chats and over the last days, through PostgreSQL COPY or multi-row INSERTs
 * (H2). It writes rows directly and records no events for them.
 */
@Component
public class Seeder {

	private static final Logger logger = LoggerFactory.getLogger(Seeder.class);

	private static final String[] WORDS = { "hello", "order", "delivery", "invoice", "thanks", "meeting", "tomorrow",
			"payment", "status", "update", "photo", "address", "price", "support", "ticket", "weekend", "call",
			"urgent" };

	private static final String[] CHANNELS = { "WHATSAPP", "TELEGRAM", "SLACK", "DISCORD", "SMS" };

	private static final String MESSAGE_COLUMNS = "id, chat_id, instance_id, direction, type, status, text, created_at, updated_at";

	private final DatabaseClient client;

	private final ConnectionFactory connectionFactory;

	private final DatabaseUrl databaseUrl;

	private final Clock clock;

	Seeder(DatabaseClient client, ConnectionFactory connectionFactory, DatabaseUrl databaseUrl, Clock clock) {
		this.client = client;
		this.connectionFactory = connectionFactory;
		this.databaseUrl = databaseUrl;
		this.clock = clock;
	}

	/** Creates what {@code plan} asks for; emits the ids of the instances created. */
	public Mono<List<UUID>> seed(SeedProperties plan) {
		String run = Long.toString(System.currentTimeMillis(), 36);
		Instant now = Timestamps.now(this.clock);
		Instant start = now.minus(Duration.ofDays(plan.days()));
		int instanceCount = Math.max(plan.instances(), (plan.chats() > 0 || plan.messages() > 0) ? 1 : 0);
		int chatCount = Math.max(plan.chats(), (plan.messages() > 0) ? 1 : 0);
		List<UUID> instances = new ArrayList<>();
		for (int i = 0; i < instanceCount; i++) {
			instances.add(Ids.next());
		}
		List<SeedChat> chats = new ArrayList<>();
		for (int i = 0; i < chatCount; i++) {
			long count = plan.messages() / chatCount + ((i < plan.messages() % chatCount) ? 1 : 0);
			chats.add(new SeedChat(Ids.next(), instances.get(i % instanceCount), "seed-" + run + "-" + i, count));
		}
		long began = System.nanoTime();
		logger.info("Seeding {}: {} instances, {} chats, {} messages, {} events", this.databaseUrl.describe(),
				instanceCount, chatCount, plan.messages(), plan.events());
		return insertInstances(run, instances, now).then(insertChats(chats, start, now, plan.batchSize()))
			.then(Mono.defer(() -> {
				logger.info("Instances and chats stored after {} ms", elapsedMs(began));
				return insertMessages(chats, start, now, plan.batchSize());
			}))
			.then(Mono.defer(() -> insertEvents(instances, plan.events(), start, now, plan.batchSize())))
			.then(analyze())
			.then(Mono.fromSupplier(() -> {
				long ms = Math.max(1, elapsedMs(began));
				logger.info("Seeding finished in {} ms ({} messages/s)", ms, plan.messages() * 1000 / ms);
				return List.copyOf(instances);
			}));
	}

	private Mono<Void> insertInstances(String run, List<UUID> instances, Instant now) {
		List<List<Object>> rows = new ArrayList<>();
		for (int i = 0; i < instances.size(); i++) {
			rows.add(List.of(instances.get(i), "seed-" + run + "-" + i, CHANNELS[i % CHANNELS.length], "CONNECTED",
					"{}", Timestamps.toDb(now), Timestamps.toDb(now)));
		}
		return insertRows("instances", "id, name, channel, status, settings, created_at, updated_at", rows, 500);
	}

	private Mono<Void> insertChats(List<SeedChat> chats, Instant start, Instant now, int batchSize) {
		List<List<Object>> rows = new ArrayList<>();
		for (SeedChat chat : chats) {
			Object last = (chat.messages() > 0)
					? Timestamps.toDb(messageTime(start, now, chat.messages() - 1, chat.messages())) : null;
			List<Object> row = new ArrayList<>(List.of(chat.id(), chat.instanceId(), chat.remoteId(),
					"Seed chat " + chat.remoteId(), "DIRECT", chat.messages(), chat.messages() / 10));
			row.add(last);
			row.add(Timestamps.toDb(start));
			row.add(Timestamps.toDb(now));
			rows.add(row);
		}
		return insertRows("chats",
				"id, instance_id, remote_id, name, type, message_count, unread_count, last_message_at, created_at, updated_at",
				rows, batchSize);
	}

	/**
	 * The time of message {@code index} of {@code count} in a chat: evenly spread, oldest
	 * first.
	 */
	private static Instant messageTime(Instant start, Instant end, long index, long count) {
		long span = Duration.between(start, end).toNanos() / 1_000;
		long micros = (count <= 1) ? span : span * index / (count - 1);
		return start.plusNanos(micros * 1_000);
	}

	private Mono<Void> insertMessages(List<SeedChat> chats, Instant start, Instant now, int batchSize) {
		long total = chats.stream().mapToLong(SeedChat::messages).sum();
		if (total == 0) {
			return Mono.empty();
		}
		AtomicLong written = new AtomicLong();
		long began = System.nanoTime();
		Flux<Object[]> rows = Flux.fromIterable(chats)
			.concatMap((chat) -> Flux.range(0, (int) chat.messages()).map((i) -> {
				Instant at = messageTime(start, now, i, chat.messages());
				boolean inbound = ThreadLocalRandom.current().nextBoolean();
				return new Object[] { Ids.next(), chat.id(), chat.instanceId(), inbound ? "INBOUND" : "OUTBOUND",
						"TEXT", inbound ? "RECEIVED" : "READ", text(), at, at };
			}));
		Flux<Long> batches = (this.databaseUrl
			.postgres())
					? copy(rows, batchSize * 10)
					: rows.buffer(batchSize)
						.concatMap((batch) -> insertRows("messages", MESSAGE_COLUMNS,
								batch.stream().map(Seeder::toDbRow).toList(), batchSize)
							.thenReturn((long) batch.size()));
		return batches.doOnNext((count) -> {
			long done = written.addAndGet(count);
			if (done / 100_000 != (done - count) / 100_000) {
				logger.info("{} of {} messages stored ({} ms)", done, total, elapsedMs(began));
			}
		}).then();
	}

	private static List<Object> toDbRow(Object[] row) {
		List<Object> values = new ArrayList<>(List.of(row));
		values.set(7, Timestamps.toDb((Instant) row[7]));
		values.set(8, Timestamps.toDb((Instant) row[8]));
		return values;
	}

	/**
	 * COPY ... FROM STDIN of every row, in buffers of {@code rowsPerBuffer}; emits row
	 * counts per buffer.
	 */
	private Flux<Long> copy(Flux<Object[]> rows, int rowsPerBuffer) {
		AtomicLong copied = new AtomicLong();
		Flux<ByteBuf> buffers = rows.buffer(rowsPerBuffer).map((batch) -> {
			StringBuilder text = new StringBuilder(batch.size() * 160);
			for (Object[] row : batch) {
				for (int i = 0; i < row.length; i++) {
					if (i > 0) {
						text.append('\t');
					}
					text.append(row[i]);
				}
				text.append('\n');
			}
			copied.addAndGet(batch.size());
			return Unpooled.wrappedBuffer(text.toString().getBytes(StandardCharsets.UTF_8));
		});
		return Flux.usingWhen(Mono.from(this.connectionFactory.create()),
				(connection) -> postgres(connection)
					.copyIn("COPY messages (" + MESSAGE_COLUMNS + ") FROM STDIN", buffers)
					.flux(),
				Connection::close);
	}

	@SuppressWarnings("unchecked")
	private static PostgresqlConnection postgres(Connection connection) {
		Connection current = connection;
		while (!(current instanceof PostgresqlConnection) && current instanceof Wrapped<?> wrapped) {
			current = ((Wrapped<Connection>) wrapped).unwrap();
		}
		if (current instanceof PostgresqlConnection postgres) {
			return postgres;
		}
		throw new IllegalStateException("Not a PostgreSQL connection: " + connection.getClass());
	}

	private Mono<Void> insertEvents(List<UUID> instances, long count, Instant start, Instant now, int batchSize) {
		if (count == 0 || instances.isEmpty()) {
			return Mono.empty();
		}
		return Flux.range(0, (int) count).map((i) -> {
			Instant at = messageTime(start, now, i, count);
			UUID instanceId = instances.get(i % instances.size());
			UUID subject = Ids.next();
			String payload = "{\"id\":\"" + subject + "\",\"seeded\":true,\"text\":\"" + text() + "\"}";
			return (List<Object>) List.<Object>of(Ids.next(), instanceId, "message.received", subject, payload,
					Timestamps.toDb(at));
		})
			.buffer(batchSize)
			.concatMap((batch) -> insertRows("events", "id, instance_id, type, subject_id, payload, created_at", batch,
					batchSize))
			.then();
	}

	/** One multi-row INSERT per {@code batchSize} rows. */
	private Mono<Void> insertRows(String table, String columns, List<List<Object>> rows, int batchSize) {
		if (rows.isEmpty()) {
			return Mono.empty();
		}
		int width = columns.split(",").length;
		return Flux.fromIterable(rows).buffer(batchSize).concatMap((batch) -> {
			StringBuilder sql = new StringBuilder("INSERT INTO ").append(table)
				.append(" (")
				.append(columns)
				.append(") VALUES ");
			Map<String, Object> parameters = new HashMap<>();
			for (int r = 0; r < batch.size(); r++) {
				sql.append((r > 0) ? ", (" : "(");
				for (int c = 0; c < width; c++) {
					String name = "p" + r + "_" + c;
					Object value = batch.get(r).get(c);
					sql.append((c > 0) ? ", " : "");
					if (value == null) {
						sql.append("NULL");
					}
					else {
						sql.append(':').append(name);
						parameters.put(name, value);
					}
				}
				sql.append(')');
			}
			return this.client.sql(sql.toString()).bindValues(parameters).then();
		}).then();
	}

	private Mono<Void> analyze() {
		return (this.databaseUrl.postgres()) ? this.client.sql("ANALYZE").then() : Mono.empty();
	}

	private static String text() {
		ThreadLocalRandom random = ThreadLocalRandom.current();
		int words = 3 + random.nextInt(10);
		StringBuilder text = new StringBuilder();
		for (int i = 0; i < words; i++) {
			text.append((i > 0) ? " " : "").append(WORDS[random.nextInt(WORDS.length)]);
		}
		return text.toString();
	}

	private static long elapsedMs(long began) {
		return (System.nanoTime() - began) / 1_000_000;
	}

	/** A chat to create and how many messages it gets. */
	private record SeedChat(UUID id, UUID instanceId, String remoteId, long messages) {
	}

}
