package dev.junction.mock.anthropic;

import dev.junction.mock.completion.Completion;
import dev.junction.mock.completion.Conversation;
import dev.junction.mock.pipeline.ChatDialect;
import dev.junction.mock.pipeline.MockError;
import dev.junction.mock.pipeline.SseStream;
import tools.jackson.databind.JsonNode;

/** Anthropic Messages: {@code POST /v1/messages}. */
public final class AnthropicDialect implements ChatDialect {

	private final AnthropicErrors errors = new AnthropicErrors();

	@Override
	public Conversation read(JsonNode body) {
		return AnthropicMessagesReader.read(body);
	}

	@Override
	public byte[] json(Conversation conversation, Completion completion) {
		return AnthropicMessageWriter.write(conversation, completion);
	}

	@Override
	public SseStream stream(Conversation conversation, Completion completion) {
		return new AnthropicMessageStream(conversation, completion);
	}

	@Override
	public byte[] body(MockError error) {
		return errors.body(error);
	}

}
