package dev.junction.gateway.pipeline;

import java.util.function.BiFunction;

import dev.junction.gateway.provider.ChatChunk;
import dev.junction.gateway.provider.ChatOutput;
import dev.junction.gateway.provider.ChatProvider;
import dev.junction.gateway.provider.ChatResult;
import dev.junction.gateway.provider.ProviderRequest;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;

/**
 * The two shapes of a call: one complete answer (a stream of one) or a stream of chunks.
 * Stages are written once for both; only the provider call and what applies to streams
 * alone (nothing may be replayed once a chunk has gone out) ask which one it is.
 *
 * @param <T> what the call emits
 */
public final class ChatMode<T extends ChatOutput> {

	/** One complete answer. */
	public static final ChatMode<ChatResult> COMPLETE = new ChatMode<>(false, ChatProvider::complete);

	/** A stream of chunks. */
	public static final ChatMode<ChatChunk> STREAM = new ChatMode<>(true, ChatProvider::stream);

	private final boolean streaming;

	private final BiFunction<ChatProvider, ProviderRequest, Publisher<T>> call;

	private ChatMode(boolean streaming, BiFunction<ChatProvider, ProviderRequest, Publisher<T>> call) {
		this.streaming = streaming;
		this.call = call;
	}

	/**
	 * Whether outputs reach the client one by one, so that a failure after the first
	 * cannot be replayed.
	 */
	public boolean streaming() {
		return this.streaming;
	}

	/** Calls a provider in this shape. */
	public Flux<T> call(ChatProvider provider, ProviderRequest request) {
		return Flux.from(this.call.apply(provider, request));
	}

	@Override
	public String toString() {
		return this.streaming ? "stream" : "complete";
	}

}
