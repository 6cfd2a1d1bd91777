package dev.junction.mock.pipeline;

import reactor.core.publisher.Mono;

import org.springframework.web.reactive.function.server.ServerResponse;

/** Answers a request that got past authentication and fault injection. */
@FunctionalInterface
public interface Responder {

	/**
	 * The answer to a call, given its whole body.
	 * @throws MockError for a request the provider would refuse
	 */
	Mono<ServerResponse> respond(MockCall call, byte[] body);

}
