package dev.junction.gateway.calculator;

import java.time.Duration;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import org.springframework.beans.factory.ObjectProvider;

/**
 * The {@link CalculatorClient} for callers on an event loop: when it was not made at
 * start-up (no address configured), the first call makes it on the bounded elastic
 * scheduler, since making a gRPC channel loads classes and reads service files.
 */
public final class LazyCalculator {

	private final ObjectProvider<CalculatorClient> clients;

	private final String address;

	/**
	 * Makes the client once for every caller waiting for it: a burst of first calls takes
	 * one bounded elastic thread, not one each. A failure is not kept.
	 */
	private final Mono<CalculatorClient> making;

	private volatile @Nullable CalculatorClient client;

	public LazyCalculator(ObjectProvider<CalculatorClient> clients, CalculatorProperties properties) {
		this.clients = clients;
		this.address = properties.address();
		this.making = Mono.fromCallable(this::make)
			.subscribeOn(Schedulers.boundedElastic())
			.cache((made) -> Duration.ofMillis(Long.MAX_VALUE), (failure) -> Duration.ZERO, () -> Duration.ZERO);
	}

	/** The address calls go to, as configured; asking for it makes no client. */
	public String address() {
		return this.address;
	}

	/** {@code call} on the client, made first if it is not yet. */
	public <T> Mono<T> with(Function<CalculatorClient, Mono<T>> call) {
		CalculatorClient made = this.client;
		if (made != null) {
			return call.apply(made);
		}
		return this.making.flatMap(call);
	}

	private CalculatorClient make() {
		CalculatorClient made = this.clients.getObject();
		this.client = made;
		return made;
	}

}
