package dev.junction.gateway.calculator;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.beans.factory.ObjectProvider;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.mockito.BDDMockito.given;
import static org.mockito.Mockito.mock;

class LazyCalculatorTests {

	@Test
	@SuppressWarnings("unchecked")
	void aBurstOfFirstCallsMakesTheClientOnceOnOneThread() {
		CalculatorClient client = mock(CalculatorClient.class);
		ObjectProvider<CalculatorClient> clients = mock(ObjectProvider.class);
		AtomicInteger made = new AtomicInteger();
		Set<String> threads = ConcurrentHashMap.newKeySet();
		given(clients.getObject()).willAnswer((invocation) -> {
			made.incrementAndGet();
			threads.add(Thread.currentThread().getName());
			Thread.sleep(200);
			return client;
		});
		LazyCalculator calculator = new LazyCalculator(clients, properties());

		List<CalculatorClient> seen = Flux.range(0, 50)
			.flatMap((i) -> calculator.with(Mono::just), 50)
			.collectList()
			.block(Duration.ofSeconds(10));

		assertThat(seen).hasSize(50).containsOnly(client);
		assertThat(made).hasValue(1);
		assertThat(threads).hasSize(1);
		assertThat(calculator.with(Mono::just).block(Duration.ofSeconds(1))).isSameAs(client);
		assertThat(made).hasValue(1);
	}

	@Test
	@SuppressWarnings("unchecked")
	void aFailureToMakeTheClientIsNotKept() {
		CalculatorClient client = mock(CalculatorClient.class);
		ObjectProvider<CalculatorClient> clients = mock(ObjectProvider.class);
		given(clients.getObject()).willThrow(new IllegalStateException("not yet")).willReturn(client);
		LazyCalculator calculator = new LazyCalculator(clients, properties());

		assertThatIllegalStateException().isThrownBy(() -> calculator.with(Mono::just).block(Duration.ofSeconds(5)));
		assertThat(calculator.with(Mono::just).block(Duration.ofSeconds(5))).isSameAs(client);
	}

	private static CalculatorProperties properties() {
		return new CalculatorProperties("static://127.0.0.1:1", Duration.ofSeconds(2), Duration.ofMillis(300),
				Duration.ofSeconds(1), null, null, Duration.ofMinutes(5), Duration.ofSeconds(20));
	}

}
