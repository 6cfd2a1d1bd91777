package dev.junction.gateway.pipeline;

import java.util.concurrent.atomic.AtomicBoolean;

import dev.junction.gateway.error.InvalidRequestException;
import dev.junction.gateway.error.UpstreamException;
import dev.junction.gateway.provider.ChatOutput;
import dev.junction.gateway.provider.KeyPool;
import dev.junction.gateway.provider.ProviderRegistry;
import dev.junction.gateway.routing.Target;
import reactor.core.publisher.Flux;

/**
 * Takes a permit from the target provider's limiter (waiting in its queue if need be),
 * then picks a key (see {@link KeyPool}) and tells the pool how the call went, so refused
 * keys leave the rotation, probes bring them back and rate-limited ones rest. A call
 * whose key the upstream refuses (401, 403) is sent again with another usable key, so a
 * refused key or a failed probe costs the client nothing while another key serves. The
 * upstream accepted a key once the first output arrives (the answer, or a stream's first
 * chunk). A stream holds its permit until it ends. A request carrying the caller's own
 * key takes a permit too, but no key from the pool.
 */
public final class PoolStage implements ChatStage {

	/**
	 * How errors about the caller's own key name it: the parameter the caller sent it in.
	 */
	static final String CALLER_KEY_PARAM = "apiKey";

	private final ProviderRegistry providers;

	public PoolStage(ProviderRegistry providers) {
		this.providers = providers;
	}

	@Override
	public <T extends ChatOutput> Flux<T> apply(ChatExchange exchange, Attempt attempt, Next<T> next) {
		return Flux.defer(() -> {
			Target target = attempt.routed();
			exchange.sentTo(target);
			ProviderRegistry.Entry entry = this.providers.get(target.provider());
			if (exchange.callerKey() != null && !entry.provider().takesCallerKeys()) {
				return Flux.error(InvalidRequestException.invalidField(CALLER_KEY_PARAM, "Provider '"
						+ target.provider()
						+ "' does not take a caller's own key (ai.listProvidersBYOK lists those that do): leave out '"
						+ CALLER_KEY_PARAM + "' to use the gateway's."));
			}
			return entry.limiter()
				.withPermit(() -> (exchange.callerKey() != null) ? withCallerKey(exchange, attempt, next, target)
						: withKey(exchange, attempt, next, entry.keys()));
		});
	}

	/**
	 * The call with the caller's own key: the pool is neither asked nor told, and a
	 * refusal of that key is the caller's error, never the provider's.
	 */
	private static <T extends ChatOutput> Flux<T> withCallerKey(ChatExchange exchange, Attempt attempt, Next<T> next,
			Target target) {
		return next.apply(exchange, attempt)
			.onErrorMap(KeyPool::isRefusal,
					(error) -> InvalidRequestException.invalidField(CALLER_KEY_PARAM,
							"Provider '" + target.provider() + "' refused the '" + CALLER_KEY_PARAM
									+ "' sent with the call (" + ((UpstreamException) error).upstreamStatus()
									+ "): check that key."));
	}

	private <T extends ChatOutput> Flux<T> withKey(ChatExchange exchange, Attempt attempt, Next<T> next, KeyPool keys) {
		return Flux.defer(() -> {
			KeyPool.Pick pick = keys.pick(attempt.routed().model());
			if (pick == null) {
				return next.apply(exchange, attempt);
			}
			AtomicBoolean accepted = new AtomicBoolean();
			return next.apply(exchange, attempt.with(pick.key())).doOnNext((output) -> {
				if (accepted.compareAndSet(false, true)) {
					keys.succeeded(pick);
				}
			})
				.doOnError((error) -> keys.failed(pick, error))
				.doFinally((signal) -> keys.finished(pick))
				.onErrorResume((error) -> !accepted.get() && anotherKey(keys, attempt, error),
						(error) -> withKey(exchange, attempt, next, keys));
		});
	}

	/**
	 * Whether the upstream refused the key and another one may serve the call instead.
	 */
	private static boolean anotherKey(KeyPool keys, Attempt attempt, Throwable error) {
		return KeyPool.isRefusal(error) && keys.hasUsable(attempt.routed().model());
	}

}
