package dev.junction.gateway.resilience;

import java.util.List;

import dev.junction.gateway.pipeline.Attempt;
import dev.junction.gateway.pipeline.ChatExchange;
import dev.junction.gateway.pipeline.ChatStage;
import dev.junction.gateway.provider.ChatOutput;
import dev.junction.gateway.routing.Route;
import dev.junction.gateway.routing.Target;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import reactor.core.publisher.Flux;

/**
 * Tries the route's targets in order: the next one is taken when a target fails
 * transiently or is refused locally (open circuit, full queue, no usable key), never on a
 * client error and never once a stream has sent its first chunk. Each target gets the
 * rest of the pipeline, its own retries included. A request with the caller's own key
 * goes to the first target only, so that key never reaches a provider the caller did not
 * choose.
 */
public final class FallbackStage implements ChatStage {

	/** Counter of fallbacks taken, tagged by the provider left behind. */
	public static final String FALLBACKS = "junction.gateway.fallbacks";

	private final MeterRegistry registry;

	public FallbackStage(MeterRegistry registry) {
		this.registry = registry;
	}

	@Override
	public <T extends ChatOutput> Flux<T> apply(ChatExchange exchange, Attempt attempt, Next<T> next) {
		Route route = exchange.route();
		if (route == null) {
			return Flux.error(new IllegalStateException("fallback runs before routing"));
		}
		List<Target> targets = (exchange.callerKey() != null) ? route.targets().subList(0, 1) : route.targets();
		Flux<T> answer = attempt(exchange, attempt, next, targets, 0);
		return next.mode().streaming() ? FirstChunkGuard.unmark(answer) : answer;
	}

	private <T extends ChatOutput> Flux<T> attempt(ChatExchange exchange, Attempt attempt, Next<T> next,
			List<Target> targets, int index) {
		return Flux.defer(() -> {
			Flux<T> call = next.apply(exchange, attempt.to(targets.get(index)));
			if (next.mode().streaming()) {
				call = FirstChunkGuard.mark(call);
			}
			if (index + 1 >= targets.size()) {
				return call;
			}
			return call.onErrorResume(Failures::worthFallingBack, (error) -> {
				count(targets.get(index));
				return attempt(exchange, attempt, next, targets, index + 1);
			});
		});
	}

	private void count(Target from) {
		Counter.builder(FALLBACKS)
			.description("Requests moved on to the next target of their route")
			.baseUnit("requests")
			.tag("provider", from.provider())
			.register(this.registry)
			.increment();
	}

}
