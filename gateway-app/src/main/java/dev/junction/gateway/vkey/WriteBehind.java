package dev.junction.gateway.vkey;

import java.time.Duration;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Writes spend and budget blocks to the key store every interval, and at shutdown writes
 * what is left and gives back every block.
 */
public final class WriteBehind implements AutoCloseable {

	/**
	 * Counter of writes that failed and will be tried again, tagged by what they wrote.
	 */
	public static final String ERRORS = "junction.key.writes.failed";

	private static final Logger logger = LoggerFactory.getLogger(WriteBehind.class);

	/** Longest shutdown waits for the last writes. */
	private static final Duration LAST_WRITES = Duration.ofSeconds(10);

	private final BudgetLeases leases;

	private final SpendBuffer spend;

	private final Disposable schedule;

	public WriteBehind(BudgetLeases leases, SpendBuffer spend, Duration interval) {
		this.leases = leases;
		this.spend = spend;
		this.schedule = Flux.interval(interval, interval)
			.onBackpressureDrop()
			.concatMap((tick) -> write(false), 1)
			.subscribe();
	}

	private Mono<Void> write(boolean everything) {
		return this.spend.flush().then(this.leases.flush(everything)).onErrorResume((error) -> Mono.empty());
	}

	@Override
	public void close() {
		this.schedule.dispose();
		try {
			write(true).block(LAST_WRITES);
		}
		catch (RuntimeException ex) {
			logger.warn("Could not write the last spend and give back budget blocks: {}", ex.getMessage());
		}
	}

}
