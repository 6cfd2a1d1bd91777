package dev.junction.mock.responses;

import java.nio.charset.StandardCharsets;

import dev.junction.mock.completion.Completion;
import dev.junction.mock.completion.CompletionPlanner;
import dev.junction.mock.pipeline.MockCall;
import dev.junction.mock.pipeline.RequestBodies;
import dev.junction.mock.pipeline.Responder;
import reactor.core.publisher.Mono;

import org.springframework.web.reactive.function.server.ServerResponse;

/**
 * OpenAI Responses: {@code POST /v1/responses}, answered with a {@code response} object
 * or, with {@code stream: true}, with its stream of events. The same completions as the
 * chat endpoints: the text restates the last user message, and offered function tools are
 * called.
 */
public final class ResponsesResponder implements Responder {

	@Override
	public Mono<ServerResponse> respond(MockCall call, byte[] body) {
		ResponsesRequest request = ResponsesRequest.read(RequestBodies.object(body));
		Completion completion = CompletionPlanner.plan(request.conversation(), call.behavior());
		ResponseObject response = new ResponseObject(request, completion);
		return request.conversation().stream() ? call.stream(new ResponsesStream(response))
				: call.json(response.finished().getBytes(StandardCharsets.UTF_8));
	}

}
