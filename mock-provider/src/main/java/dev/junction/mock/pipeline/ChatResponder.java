package dev.junction.mock.pipeline;

import reactor.core.publisher.Mono;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.web.reactive.function.server.ServerResponse;

import dev.junction.mock.completion.Completion;
import dev.junction.mock.completion.CompletionPlanner;
import dev.junction.mock.completion.Conversation;

/** Answers a chat request in one provider's dialect: parse, plan the completion, write JSON or a stream. */
public final class ChatResponder implements Responder {

    private static final JsonMapper JSON = JsonMapper.shared();

    private final ChatDialect dialect;

    public ChatResponder(ChatDialect dialect) {
        this.dialect = dialect;
    }

    @Override
    public Mono<ServerResponse> respond(MockCall call, byte[] body) {
        Conversation conversation = dialect.read(parse(body));
        Completion completion = CompletionPlanner.plan(conversation, call.behavior());
        return conversation.stream()
                ? call.stream(dialect.stream(conversation, completion))
                : call.json(dialect.json(conversation, completion));
    }

    private static JsonNode parse(byte[] body) {
        JsonNode json;
        try {
            json = (body.length > 0) ? JSON.readTree(body) : null;
        }
        catch (JacksonException ex) {
            throw MockError.badRequest("We could not parse the JSON body of your request: "
                    + ex.getOriginalMessage(), null);
        }
        if (json == null || !json.isObject()) {
            throw MockError.badRequest("The request body must be a JSON object.", null);
        }
        return json;
    }
}
