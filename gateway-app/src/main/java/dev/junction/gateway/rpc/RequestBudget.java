package dev.junction.gateway.rpc;

import java.util.function.Consumer;

import dev.junction.gateway.pipeline.ChatExchange.RateLimitStatus;
import reactor.core.publisher.Mono;

/**
 * Takes one request from a caller's rate-limit budget for a call that does not go through
 * the chat pipeline.
 */
@FunctionalInterface
public interface RequestBudget {

	/** No limits. */
	RequestBudget UNLIMITED = (client, status) -> Mono.empty();

	/**
	 * Takes one request, reporting the budget left to {@code status}; fails with the
	 * gateway's rate-limit denial when none is left.
	 */
	Mono<Void> take(String client, Consumer<RateLimitStatus> status);

}
