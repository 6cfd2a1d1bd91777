package dev.junction.gateway.pipeline;

import dev.junction.gateway.provider.ChatChunk;
import dev.junction.gateway.provider.ChatResult;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * One stage of the provider pipeline (metrics, routing, limits, cache, pool, resilience,
 * the provider call). A stage does its part and hands the exchange to the next one; it may
 * also answer itself or fail. Stages see both shapes of a call: a complete answer and a
 * stream of chunks.
 */
public interface ChatStage {

	Mono<ChatResult> complete(ChatExchange exchange, Next next);

	Flux<ChatChunk> stream(ChatExchange exchange, Next next);

	/** The rest of the pipeline after a stage. */
	interface Next {

		Mono<ChatResult> complete(ChatExchange exchange);

		Flux<ChatChunk> stream(ChatExchange exchange);

	}

}
