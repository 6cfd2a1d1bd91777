package dev.junction.gateway.error;

/**
 * The error body a request's API answers with: Anthropic's shape on the Messages API
 * ({@value AnthropicErrors#PATH_PREFIX}), OpenAI's everywhere else. Every answer the
 * gateway writes for a failure outside the handlers (its error handler, the server's own
 * refusals, admission's sheds) chooses its shape here.
 */
public final class ErrorBodies {

	private final OpenAiErrors openAi;

	private final AnthropicErrors anthropic;

	public ErrorBodies(OpenAiErrors openAi, AnthropicErrors anthropic) {
		this.openAi = openAi;
		this.anthropic = anthropic;
	}

	/**
	 * The body of {@code error} for a request to {@code path}; {@code requestId} goes
	 * into the Anthropic body, which carries it.
	 */
	public byte[] body(String path, GatewayException error, String requestId) {
		return AnthropicErrors.applies(path) ? this.anthropic.body(error, requestId) : this.openAi.body(error);
	}

}
