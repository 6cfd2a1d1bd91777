package dev.junction.mock.stats;

/** The emulated routes, as counted in the stats and tagged in the metrics. */
public enum Route {

	/** OpenAI {@code POST /v1/chat/completions}. */
	CHAT_COMPLETIONS("chat_completions"),

	/** Anthropic {@code POST /v1/messages}. */
	MESSAGES("messages"),

	/** {@code GET /v1/models} and {@code GET /v1/models/{id}}. */
	MODELS("models"),

	/** OpenAI {@code POST /v1/responses}. */
	RESPONSES("responses"),

	/** OpenAI {@code POST /v1/embeddings}. */
	EMBEDDINGS("embeddings"),

	/** Anthropic {@code POST /v1/messages/count_tokens}. */
	COUNT_TOKENS("count_tokens");

	private final String tag;

	Route(String tag) {
		this.tag = tag;
	}

	/** The name used in {@code /mock/stats} and as the {@code route} tag. */
	public String tag() {
		return tag;
	}

}
