package dev.junction.gateway.provider.anthropic;

import java.util.List;

import dev.junction.gateway.provider.ChatChunk;
import dev.junction.gateway.provider.ChatProvider;
import dev.junction.gateway.provider.ChatResult;
import dev.junction.gateway.provider.ClientApi;
import dev.junction.gateway.provider.ProviderRequest;
import dev.junction.gateway.provider.ProviderType;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * An Anthropic provider: chat completions translated through Spring AI, and Anthropic's
 * own Messages API (and token counting) passed through as the client sent it. Embeddings,
 * which Anthropic does not serve, come from the Spring AI embedding model configured for
 * it, if any.
 */
final class AnthropicProvider implements ChatProvider {

	private final ChatProvider chat;

	private final AnthropicMessagesClient messages;

	AnthropicProvider(ChatProvider chat, AnthropicMessagesClient messages) {
		this.chat = chat;
		this.messages = messages;
	}

	@Override
	public String name() {
		return this.chat.name();
	}

	@Override
	public ProviderType type() {
		return ProviderType.ANTHROPIC;
	}

	@Override
	public boolean speaks(ClientApi api) {
		return messages(api) || this.chat.speaks(api);
	}

	private static boolean messages(ClientApi api) {
		return api == ClientApi.ANTHROPIC_MESSAGES || api == ClientApi.ANTHROPIC_COUNT_TOKENS;
	}

	/**
	 * Both paths send each call's key as given: the Messages client per call, Spring AI
	 * as a header.
	 */
	@Override
	public boolean takesCallerKeys() {
		return true;
	}

	@Override
	public Mono<ChatResult> complete(ProviderRequest request) {
		return messages(request.api()) ? this.messages.complete(request) : this.chat.complete(request);
	}

	@Override
	public Flux<ChatChunk> stream(ProviderRequest request) {
		return messages(request.api()) ? this.messages.stream(request) : this.chat.stream(request);
	}

	@Override
	public List<String> models() {
		return this.chat.models();
	}

	@Override
	public Mono<List<String>> availableModels() {
		return this.chat.availableModels();
	}

}
