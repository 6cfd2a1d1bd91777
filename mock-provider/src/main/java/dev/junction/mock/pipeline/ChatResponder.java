package dev.junction.mock.pipeline;

import dev.junction.mock.completion.Completion;
import dev.junction.mock.completion.CompletionPlanner;
import dev.junction.mock.completion.Conversation;
import reactor.core.publisher.Mono;

import org.springframework.web.reactive.function.server.ServerResponse;

/**
 * Answers a chat request in one provider's dialect: parse, plan the completion, write
 * JSON or a stream.
 */
public final class ChatResponder implements Responder {

	private final ChatDialect dialect;

	public ChatResponder(ChatDialect dialect) {
		this.dialect = dialect;
	}

	@Override
	public Mono<ServerResponse> respond(MockCall call, byte[] body) {
		Conversation conversation = dialect.read(RequestBodies.object(body));
		Completion completion = CompletionPlanner.plan(conversation, call.behavior());
		return conversation.stream() ? call.stream(dialect.stream(conversation, completion))
				: call.json(dialect.json(conversation, completion));
	}

}
