package dev.junction.gateway.resilience;

import java.util.List;

import dev.junction.gateway.pipeline.ChatExchange;
import dev.junction.gateway.pipeline.ChatStage;
import dev.junction.gateway.provider.ChatChunk;
import dev.junction.gateway.provider.ChatResult;
import dev.junction.gateway.routing.Target;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Tries the route's targets in order: the next one is taken when a target fails
 * transiently or is refused locally (open circuit, full queue, no usable key), never on a
 * client error and never once a stream has sent its first chunk. Each target gets the rest
 * of the pipeline, its own retries included.
 */
public final class FallbackStage implements ChatStage {

	/** Counter of fallbacks taken, tagged by the provider left behind. */
	public static final String FALLBACKS = "junction.gateway.fallbacks";

	private final MeterRegistry registry;

	public FallbackStage(MeterRegistry registry) {
		this.registry = registry;
	}

	@Override
	public Mono<ChatResult> complete(ChatExchange exchange, Next next) {
		return attempt(exchange, next, exchange.route().targets(), 0);
	}

	@Override
	public Flux<ChatChunk> stream(ChatExchange exchange, Next next) {
		return FirstChunkGuard.unmark(attemptStream(exchange, next, exchange.route().targets(), 0));
	}

	private Mono<ChatResult> attempt(ChatExchange exchange, Next next, List<Target> targets, int index) {
		return Mono.defer(() -> {
			exchange.target(targets.get(index));
			Mono<ChatResult> call = next.complete(exchange);
			if (index + 1 >= targets.size()) {
				return call;
			}
			return call.onErrorResume(Failures::worthFallingBack, (error) -> {
				count(targets.get(index));
				return attempt(exchange, next, targets, index + 1);
			});
		});
	}

	private Flux<ChatChunk> attemptStream(ChatExchange exchange, Next next, List<Target> targets, int index) {
		return Flux.defer(() -> {
			exchange.target(targets.get(index));
			Flux<ChatChunk> call = FirstChunkGuard.mark(next.stream(exchange));
			if (index + 1 >= targets.size()) {
				return call;
			}
			return call.onErrorResume(Failures::worthFallingBack, (error) -> {
				count(targets.get(index));
				return attemptStream(exchange, next, targets, index + 1);
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
