package dev.junction.mock.pipeline;

import dev.junction.mock.completion.Completion;
import dev.junction.mock.completion.Conversation;
import tools.jackson.databind.JsonNode;

/**
 * One provider's chat wire format: how its requests read and how its answers and errors
 * are written.
 */
public interface ChatDialect extends ErrorFormat {

	/**
	 * Reads a parsed request body.
	 * @throws MockError (400) when the request lacks what the provider requires
	 */
	Conversation read(JsonNode body);

	/** The UTF-8 JSON body of a non-streamed answer. */
	byte[] json(Conversation conversation, Completion completion);

	/** The events of a streamed answer. */
	SseStream stream(Conversation conversation, Completion completion);

}
