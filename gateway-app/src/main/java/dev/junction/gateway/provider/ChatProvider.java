package dev.junction.gateway.provider;

import java.util.List;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The port every provider adapter implements. Failures are signalled as
 * {@link dev.junction.gateway.error.UpstreamException}; cancelling a subscription cancels
 * the upstream call.
 */
public interface ChatProvider {

	/** The configured name clients use as the {@code provider/} prefix. */
	String name();

	ProviderType type();

	/**
	 * A complete answer in OpenAI {@code chat.completion} JSON, or in the request's API.
	 */
	Mono<ChatResult> complete(ProviderRequest request);

	/**
	 * The answer as OpenAI {@code chat.completion.chunk} events, without {@code [DONE]},
	 * or as the events of the request's API.
	 */
	Flux<ChatChunk> stream(ProviderRequest request);

	/**
	 * Whether the provider serves an API besides Chat Completions natively, so that a
	 * request sent in that API reaches it unchanged ({@link ProviderRequest#api()}).
	 */
	default boolean speaks(ClientApi api) {
		return false;
	}

	/**
	 * Whether a call may carry the caller's own key ({@link ProviderRequest#callerKey()})
	 * in place of the provider's: only providers that send each call's key as it is do.
	 */
	default boolean takesCallerKeys() {
		return false;
	}

	/** The models configured for this provider. */
	List<String> models();

	/**
	 * Models a client can ask this provider for, as {@code GET /v1/models} lists them:
	 * the configured ones and, where the upstream can list its own, those too.
	 */
	default Mono<List<String>> availableModels() {
		return Mono.just(models());
	}

}
