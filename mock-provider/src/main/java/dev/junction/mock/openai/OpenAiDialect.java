package dev.junction.mock.openai;

import dev.junction.mock.completion.Completion;
import dev.junction.mock.completion.Conversation;
import dev.junction.mock.pipeline.ChatDialect;
import dev.junction.mock.pipeline.MockError;
import dev.junction.mock.pipeline.SseStream;
import tools.jackson.databind.JsonNode;

/** OpenAI Chat Completions: {@code POST /v1/chat/completions}. */
public final class OpenAiDialect implements ChatDialect {

	private final OpenAiErrors errors = new OpenAiErrors();

	@Override
	public Conversation read(JsonNode body) {
		return OpenAiChatReader.read(body);
	}

	@Override
	public byte[] json(Conversation conversation, Completion completion) {
		return OpenAiChatWriter.write(conversation, completion);
	}

	@Override
	public SseStream stream(Conversation conversation, Completion completion) {
		return new OpenAiChatStream(conversation, completion);
	}

	@Override
	public byte[] body(MockError error) {
		return errors.body(error);
	}

}
