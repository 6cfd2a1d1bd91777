package dev.junction.gateway.vkey;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.test.StepVerifier;

import static org.assertj.core.api.Assertions.assertThat;

class KeyCacheTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(5);

	private final Map<String, VirtualKey> rows = new ConcurrentHashMap<>();

	private final AtomicInteger reads = new AtomicInteger();

	private Sinks.Empty<Void> held;

	private final KeyCache cache = new KeyCache(this::read, 100, true, new SimpleMeterRegistry());

	private Mono<VirtualKey> read(String id) {
		this.reads.incrementAndGet();
		// What the table holds when the query starts.
		Mono<VirtualKey> row = Mono.justOrEmpty(this.rows.get(id));
		return (this.held != null) ? this.held.asMono().then(row) : row;
	}

	@Test
	void readsAKeyOnceThenServesItFromMemory() {
		this.rows.put("vk_1", key("vk_1", "one"));
		for (int i = 0; i < 3; i++) {
			StepVerifier.create(this.cache.get("vk_1"))
				.expectNextMatches((key) -> key.name().equals("one"))
				.verifyComplete();
		}
		assertThat(this.reads).hasValue(1);
	}

	@Test
	void rereadsAKeyAfterItIsInvalidated() {
		this.rows.put("vk_1", key("vk_1", "one"));
		this.cache.get("vk_1").block(TIMEOUT);
		this.rows.put("vk_1", key("vk_1", "two"));
		this.cache.invalidate("vk_1");
		assertThat(this.cache.get("vk_1").block(TIMEOUT).name()).isEqualTo("two");
	}

	@Test
	void aReadUnderWayWhenItsKeyChangesIsNotKept() {
		this.rows.put("vk_1", key("vk_1", "one"));
		this.held = Sinks.empty();
		Mono<VirtualKey> stale = this.cache.get("vk_1").cache();
		stale.subscribe();
		this.rows.put("vk_1", key("vk_1", "two"));
		this.cache.invalidate("vk_1");
		release();
		assertThat(stale.block(TIMEOUT).name()).isEqualTo("one");
		assertThat(this.cache.get("vk_1").block(TIMEOUT).name()).isEqualTo("two");
	}

	@Test
	void remembersAnUnknownIdUntilAKeyIsCreatedWithIt() {
		assertThat(this.cache.get("vk_1").block(TIMEOUT)).isNull();
		assertThat(this.cache.get("vk_1").block(TIMEOUT)).isNull();
		assertThat(this.reads).hasValue(1);
		this.rows.put("vk_1", key("vk_1", "one"));
		this.cache.invalidate("vk_1");
		assertThat(this.cache.get("vk_1").block(TIMEOUT).name()).isEqualTo("one");
	}

	@Test
	void anUnknownIdWhoseKeyIsCreatedDuringTheReadIsNotRemembered() {
		this.held = Sinks.empty();
		Mono<VirtualKey> missing = this.cache.get("vk_1").cache();
		missing.subscribe();
		this.rows.put("vk_1", key("vk_1", "one"));
		this.cache.invalidate("vk_1");
		release();
		assertThat(missing.block(TIMEOUT)).isNull();
		assertThat(this.cache.get("vk_1").block(TIMEOUT)).isNotNull();
	}

	@Test
	void concurrentReadsOfOneKeyShareOneQuery() {
		this.rows.put("vk_1", key("vk_1", "one"));
		this.held = Sinks.empty();
		List<Mono<VirtualKey>> waiting = List.of(this.cache.get("vk_1").cache(), this.cache.get("vk_1").cache());
		waiting.forEach(Mono::subscribe);
		release();
		waiting.forEach((read) -> assertThat(read.block(TIMEOUT)).isNotNull());
		assertThat(this.reads).hasValue(1);
	}

	@Test
	void untrustedReadsTheDatabaseEveryTimeAndKeepsNothing() {
		this.rows.put("vk_1", key("vk_1", "one"));
		this.cache.get("vk_1").block(TIMEOUT);
		this.cache.distrust();
		this.cache.get("vk_1").block(TIMEOUT);
		this.cache.get("vk_1").block(TIMEOUT);
		assertThat(this.reads).hasValue(3);
		this.cache.trust();
		this.cache.get("vk_1").block(TIMEOUT);
		this.cache.get("vk_1").block(TIMEOUT);
		assertThat(this.reads).hasValue(4);
	}

	/** Lets the query under way answer; later ones answer at once. */
	private void release() {
		Sinks.Empty<Void> held = this.held;
		this.held = null;
		held.tryEmitEmpty();
	}

	private static VirtualKey key(String id, String name) {
		return new VirtualKey(id, "00", name, null, List.of(), null, null, null, null, null, Instant.EPOCH);
	}

}
