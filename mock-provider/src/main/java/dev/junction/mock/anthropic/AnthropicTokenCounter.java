package dev.junction.mock.anthropic;

import java.nio.charset.StandardCharsets;

import dev.junction.mock.completion.MockText;
import dev.junction.mock.pipeline.MockCall;
import dev.junction.mock.pipeline.RequestBodies;
import dev.junction.mock.pipeline.Responder;
import reactor.core.publisher.Mono;

import org.springframework.web.reactive.function.server.ServerResponse;

/**
 * Anthropic {@code POST /v1/messages/count_tokens}: {@code {"input_tokens": n}} for a
 * Messages request, the same count that {@code /v1/messages} reports as the usage of that
 * request.
 */
public final class AnthropicTokenCounter implements Responder {

	@Override
	public Mono<ServerResponse> respond(MockCall call, byte[] body) {
		long chars = AnthropicMessagesReader.readWithoutMaxTokens(RequestBodies.object(body)).promptChars();
		return call
			.json(("{\"input_tokens\":" + MockText.estimateTokens(chars) + "}").getBytes(StandardCharsets.UTF_8));
	}

}
