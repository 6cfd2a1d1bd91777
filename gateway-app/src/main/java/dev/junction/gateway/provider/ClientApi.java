package dev.junction.gateway.provider;

/**
 * The APIs clients call the gateway in. Every provider serves OpenAI Chat Completions; a
 * request that arrives in another API reaches a provider that speaks that API as the
 * client sent it, and any other provider as a chat completion where one can stand for it.
 */
public enum ClientApi {

	/** OpenAI {@code POST /chat/completions}. */
	CHAT_COMPLETIONS("chat completions"),

	/** Anthropic {@code POST /v1/messages}. */
	ANTHROPIC_MESSAGES("Anthropic messages"),

	/** Anthropic {@code POST /v1/messages/count_tokens}. */
	ANTHROPIC_COUNT_TOKENS("Anthropic token counting"),

	/** OpenAI {@code POST /responses}. */
	RESPONSES("OpenAI responses"),

	/** OpenAI {@code POST /embeddings}. */
	EMBEDDINGS("embeddings");

	private final String description;

	ClientApi(String description) {
		this.description = description;
	}

	/** Whether providers charge for its requests (they do not for counting tokens). */
	public boolean billed() {
		return this != ANTHROPIC_COUNT_TOKENS;
	}

	/** What the API is called in messages to clients. */
	public String description() {
		return this.description;
	}

}
