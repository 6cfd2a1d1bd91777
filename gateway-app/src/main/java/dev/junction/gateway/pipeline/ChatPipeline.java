package dev.junction.gateway.pipeline;

import java.util.List;

import dev.junction.gateway.provider.ChatChunk;
import dev.junction.gateway.provider.ChatResult;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The one path from every entry point to a provider: the stages in order, built once.
 * Entry points (OpenAI API, JSON-RPC, tRPC) only parse their protocol and call this.
 */
public final class ChatPipeline {

	private final ChatStage.Next head;

	public ChatPipeline(List<ChatStage> stages) {
		if (stages.isEmpty()) {
			throw new IllegalArgumentException("a pipeline needs at least its final stage");
		}
		ChatStage.Next next = null;
		for (int i = stages.size() - 1; i >= 0; i--) {
			next = new Link(stages.get(i), next);
		}
		this.head = next;
	}

	public Mono<ChatResult> complete(ChatExchange exchange) {
		return Mono.defer(() -> this.head.complete(exchange));
	}

	public Flux<ChatChunk> stream(ChatExchange exchange) {
		return Flux.defer(() -> this.head.stream(exchange));
	}

	private record Link(ChatStage stage, ChatStage.Next next) implements ChatStage.Next {

		@Override
		public Mono<ChatResult> complete(ChatExchange exchange) {
			return this.stage.complete(exchange, this.next);
		}

		@Override
		public Flux<ChatChunk> stream(ChatExchange exchange) {
			return this.stage.stream(exchange, this.next);
		}

	}

}
