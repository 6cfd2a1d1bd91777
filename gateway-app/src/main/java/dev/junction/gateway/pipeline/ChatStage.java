package dev.junction.gateway.pipeline;

import dev.junction.gateway.provider.ChatOutput;
import reactor.core.publisher.Flux;

/**
 * One stage of the provider pipeline (metrics, routing, limits, cache, pool, resilience,
 * the provider call). A stage does its part and hands the attempt to the next one,
 * changed or not; it may also answer itself or fail. A stage is written once, for any
 * {@link ChatMode}: a complete answer is a stream of one
 * {@link dev.junction.gateway.provider.ChatResult}, a streamed one a stream of
 * {@link dev.junction.gateway.provider.ChatChunk}s.
 */
public interface ChatStage {

	<T extends ChatOutput> Flux<T> apply(ChatExchange exchange, Attempt attempt, Next<T> next);

	/** The rest of the pipeline after a stage. */
	interface Next<T extends ChatOutput> {

		Flux<T> apply(ChatExchange exchange, Attempt attempt);

		/** The shape of the call going through. */
		ChatMode<T> mode();

	}

}
