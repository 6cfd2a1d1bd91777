package dev.junction.gateway.pipeline;

import dev.junction.gateway.provider.ChatRequest;
import dev.junction.gateway.provider.KeyPool;
import dev.junction.gateway.routing.Target;
import org.jspecify.annotations.Nullable;

/**
 * What one attempt at a request is made of, passed down the stages as a value: a stage
 * that changes it hands the next stage a new one, so retries and fallbacks never see
 * another attempt's choices.
 *
 * @param target where the attempt goes; null until the request is routed
 * @param key the upstream key chosen for it, if the provider uses keys
 * @param request the request as it is sent
 */
public record Attempt(@Nullable Target target, KeyPool.@Nullable PooledKey key, ChatRequest request) {

	/** A request not routed yet. */
	public static Attempt of(ChatRequest request) {
		return new Attempt(null, null, request);
	}

	/** The same request sent to another target, with no key chosen yet. */
	public Attempt to(Target target) {
		return new Attempt(target, null, this.request);
	}

	/** This attempt with an upstream key. */
	public Attempt with(KeyPool.PooledKey key) {
		return new Attempt(this.target, key, this.request);
	}

	/** The target, which stages after routing can count on. */
	public Target routed() {
		Target target = this.target;
		if (target == null) {
			throw new IllegalStateException("a stage that needs a target runs before routing");
		}
		return target;
	}

}
