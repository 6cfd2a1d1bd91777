package dev.junction.gateway.pipeline;

import java.util.List;

import dev.junction.gateway.provider.ChatChunk;
import dev.junction.gateway.provider.ChatOutput;
import dev.junction.gateway.provider.ChatResult;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The one path from every entry point to a provider: the stages in order, built once for
 * each {@link ChatMode}. Entry points (OpenAI API, JSON-RPC, tRPC) only parse their
 * protocol and call this.
 */
public final class ChatPipeline {

	private final ChatStage.Next<ChatResult> complete;

	private final ChatStage.Next<ChatChunk> stream;

	public ChatPipeline(List<ChatStage> stages) {
		if (stages.isEmpty()) {
			throw new IllegalArgumentException("a pipeline needs at least its final stage");
		}
		this.complete = chain(stages, ChatMode.COMPLETE);
		this.stream = chain(stages, ChatMode.STREAM);
	}

	private static <T extends ChatOutput> ChatStage.Next<T> chain(List<ChatStage> stages, ChatMode<T> mode) {
		ChatStage.Next<T> next = new End<>(mode);
		for (int i = stages.size() - 1; i >= 0; i--) {
			next = new Link<>(stages.get(i), next, mode);
		}
		return next;
	}

	public Mono<ChatResult> complete(ChatExchange exchange) {
		return Mono.fromDirect(Flux.defer(() -> this.complete.apply(exchange, Attempt.of(exchange.request()))));
	}

	public Flux<ChatChunk> stream(ChatExchange exchange) {
		return Flux.defer(() -> this.stream.apply(exchange, Attempt.of(exchange.request())));
	}

	private record Link<T extends ChatOutput>(ChatStage stage, ChatStage.Next<T> next,
			ChatMode<T> mode) implements ChatStage.Next<T> {

		@Override
		public Flux<T> apply(ChatExchange exchange, Attempt attempt) {
			return this.stage.apply(exchange, attempt, this.next);
		}

	}

	/** After the last stage: the provider stage answers, so nothing gets here. */
	private record End<T extends ChatOutput>(ChatMode<T> mode) implements ChatStage.Next<T> {

		@Override
		public Flux<T> apply(ChatExchange exchange, Attempt attempt) {
			return Flux.error(new IllegalStateException("no stage answered: the provider stage comes last"));
		}

	}

}
