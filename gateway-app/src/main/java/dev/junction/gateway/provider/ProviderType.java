package dev.junction.gateway.provider;

/** The kinds of provider adapter. */
public enum ProviderType {

	/** Any OpenAI-compatible HTTP API, passed through. */
	OPENAI,

	/** Anthropic's Messages API, through Spring AI. */
	ANTHROPIC,

	/** The in-process deterministic emulator. */
	MOCK;

	/**
	 * Whether a request that sets no temperature gets a sampled (non-deterministic)
	 * answer.
	 */
	public boolean samplesByDefault() {
		return this != MOCK;
	}

}
