package dev.junction.gateway.calculator;

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

	private volatile @Nullable CalculatorClient client;

	public LazyCalculator(ObjectProvider<CalculatorClient> clients, CalculatorProperties properties) {
		this.clients = clients;
		this.address = properties.address();
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
		return Mono.fromCallable(this::make).subscribeOn(Schedulers.boundedElastic()).flatMap(call);
	}

	private CalculatorClient make() {
		CalculatorClient made = this.clients.getObject();
		this.client = made;
		return made;
	}

}
